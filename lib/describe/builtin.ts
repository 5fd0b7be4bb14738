/**
 * Chrome's on-device Summarizer API (Gemini Nano, Chrome 138+) as a description provider:
 * free, private, offline once the model is downloaded.
 * https://developer.chrome.com/docs/ai/summarizer-api
 *
 * Chrome exposes `Summarizer` to window contexts (extension pages such as the side panel, or
 * an offscreen document), not to service workers: there availability is 'unavailable'.
 * Starting a model download needs a user gesture, so call `create` (the first describe) from
 * a click when availability is 'downloadable'. The model runs one request at a time: use
 * concurrency 1. Lib code never assumes the API exists; everything is feature-detected.
 */
import { BUILTIN_SHARED_CONTEXT, builtinContext, trimToTokens } from './prompt';
import type { DescriptionProvider, ProviderAnswer } from './types';

export type BuiltinAvailability = 'unavailable' | 'downloadable' | 'downloading' | 'available';

/** The slice of the Summarizer API used here (TypeScript's DOM types do not have it yet). */
interface SummarizerSession {
  summarize(input: string, options?: { signal?: AbortSignal; context?: string }): Promise<string>;
  destroy?(): void;
}

interface SummarizerFactory {
  availability(options?: object): Promise<string>;
  create(options: object): Promise<SummarizerSession>;
}

/**
 * The create options; Chrome asks for the same object in availability() and create().
 * 'tldr' + 'short' is one sentence; English output, which is also what silences Chrome's
 * "no output language" warning.
 */
export const BUILTIN_OPTIONS = { type: 'tldr', format: 'plain-text', length: 'short', sharedContext: BUILTIN_SHARED_CONTEXT, outputLanguage: 'en' } as const;

function factoryIn(scope: object): SummarizerFactory | null {
  const candidate: unknown = (scope as { Summarizer?: unknown }).Summarizer;
  if (candidate === null || (typeof candidate !== 'object' && typeof candidate !== 'function')) return null;
  const { availability, create } = candidate as Partial<Record<'availability' | 'create', unknown>>;
  return typeof availability === 'function' && typeof create === 'function' ? (candidate as SummarizerFactory) : null;
}

/** Whether the on-device model can be used here; 'unavailable' when the API is absent or throws. */
export async function builtinAvailability(scope: object = globalThis): Promise<BuiltinAvailability> {
  try {
    const factory = factoryIn(scope);
    if (!factory) return 'unavailable';
    const answer = await factory.availability(BUILTIN_OPTIONS);
    // Chrome before 137 answered 'readily' / 'after-download' / 'no'.
    if (answer === 'available' || answer === 'readily') return 'available';
    if (answer === 'downloadable' || answer === 'after-download') return 'downloadable';
    if (answer === 'downloading') return 'downloading';
    return 'unavailable';
  } catch {
    return 'unavailable';
  }
}

export interface BuiltinProviderOptions {
  /** Where to find `Summarizer`; default globalThis. */
  scope?: object;
  /** Page text per call, in o200k tokens (the on-device model's window is small). Default 1500. */
  budgetTokens?: number;
  /** Model download progress, 0–1, while the first call waits for it. */
  onDownloadProgress?: (fraction: number) => void;
}

/** A {@link DescriptionProvider} on the on-device Summarizer; `destroy()` frees the model session. */
export function builtinProvider(options: BuiltinProviderOptions = {}): DescriptionProvider & { destroy(): void } {
  const { scope = globalThis, budgetTokens = 1500, onDownloadProgress } = options;
  let session: Promise<SummarizerSession | ProviderAnswer> | null = null;
  const open = (): Promise<SummarizerSession | ProviderAnswer> => {
    const factory = factoryIn(scope);
    if (!factory) return Promise.resolve(unusable("Chrome's on-device Summarizer is not available in this browser or here"));
    const monitor = (m: EventTarget) =>
      m.addEventListener('downloadprogress', (event) => onDownloadProgress?.((event as ProgressEvent).loaded));
    return factory.create({ ...BUILTIN_OPTIONS, monitor }).catch((error: unknown) => unusable(createFailure(error)));
  };
  return {
    id: 'builtin',
    async describe(page, signal) {
      if (signal.aborted) return cancelled();
      session ??= open();
      const ready = await session;
      if ('ok' in ready) return ready;
      try {
        const text = await ready.summarize(trimToTokens(page.markdown, budgetTokens), { signal, context: builtinContext(page) });
        return { ok: true, text };
      } catch (error) {
        return signal.aborted ? cancelled() : summarizeFailure(error);
      }
    },
    destroy() {
      void session?.then((s) => ('ok' in s ? undefined : s.destroy?.()));
      session = null;
    },
  };
}

function errorName(error: unknown): string {
  const name = error !== null && typeof error === 'object' ? (error as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name : 'Error';
}

/** 'auth' is the kind that stops a run: without a session no page can be described. */
function unusable(reason: string): ProviderAnswer {
  return { ok: false, kind: 'auth', reason };
}

function cancelled(): ProviderAnswer {
  return { ok: false, kind: 'cancelled', reason: 'Cancelled' };
}

function createFailure(error: unknown): string {
  const name = errorName(error);
  if (name === 'NotAllowedError') return "Chrome's on-device model must be downloaded first: start it with a click (Chrome needs a user gesture)";
  if (name === 'NotSupportedError') return "Chrome's on-device model does not support these settings or this language";
  if (name === 'NetworkError') return "Chrome could not download its on-device model";
  return `Chrome's on-device model is not available (${name})`;
}

function summarizeFailure(error: unknown): ProviderAnswer {
  const name = errorName(error);
  if (name === 'QuotaExceededError') return { ok: false, kind: 'client', reason: 'The page is too long for the on-device model' };
  // NotReadableError: Chrome's output filter withheld the answer; the same page would be withheld again.
  if (name === 'NotReadableError') return { ok: false, kind: 'client', reason: "Chrome's on-device model declined to summarise this page" };
  // The session is gone (its document closed): nothing more can be described with it.
  if (name === 'InvalidStateError') return unusable("Chrome's on-device model session ended");
  return { ok: false, kind: 'client', reason: `Chrome's on-device model failed on this page (${name})` };
}
