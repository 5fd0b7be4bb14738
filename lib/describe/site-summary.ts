import type { Store } from '../store/store';
import { cleanSummary } from './clean';
import { callChat, type EndpointConfig } from './endpoint';
import { PROMPT_VERSION, siteMessages } from './prompt';
import { latestArtifact } from '../store/queries';
import { keepDescription } from '../store/descriptions';

/** Where a site's model-written summary is kept: beside the page descriptions, per provider and prompt version. */
export const siteSummaryKey = (origin: string, providerId: string, promptVersion: number = PROMPT_VERSION) => `site|v${promptVersion}|${providerId}|${origin}`;

/** The longest summary kept: one sentence for the llms.txt blockquote. */
const MAX_CHARS = 300;

/** Failures worth another try (a dropped keep-alive connection, a busy server), as for page descriptions. */
const RETRYABLE = new Set(['rate-limited', 'server', 'timeout', 'network']);
const RETRIES = 2;

/**
 * The one-line summary under the llms.txt title, written by the user's endpoint from the
 * site's page titles and descriptions (the latest llms.txt's entries). One call, retried twice
 * with backoff (Retry-After honoured, capped) on failures that can pass; on any other failure
 * the deterministic summary stays, and the reason is returned.
 */
export async function describeSite(
  db: Store,
  origin: string,
  config: EndpointConfig,
  options: { fetch: typeof fetch; providerId: string; signal?: AbortSignal; baseDelayMs?: number },
): Promise<{ summary: string } | { reason: string }> {
  const llms = await latestArtifact(db, origin, 'llms');
  if (!llms?.model) return { reason: 'No llms.txt yet to summarise' };
  const entries = llms.model.sections.filter((s) => !s.optional).flatMap((s) => s.entries.map((e) => ({ title: e.title, description: e.description })));
  const messages = siteMessages({ siteName: llms.model.title, entries });
  let answer = await callChat(config, messages, { fetch: options.fetch, signal: options.signal, maxTokens: 300 });
  for (let retry = 0; !answer.ok && RETRYABLE.has(answer.kind) && retry < RETRIES && !options.signal?.aborted; retry++) {
    const wait = Math.min(30_000, Math.max(answer.retryAfterMs ?? 0, Math.random() * (options.baseDelayMs ?? 500) * 2 ** retry));
    await new Promise((resolve) => setTimeout(resolve, wait));
    answer = await callChat(config, messages, { fetch: options.fetch, signal: options.signal, maxTokens: 300 });
  }
  if (!answer.ok) return { reason: answer.reason };
  const summary = cleanSummary(answer.text, MAX_CHARS);
  if (!summary) return { reason: 'The answer was not a usable summary' };
  await keepDescription(db, siteSummaryKey(origin, options.providerId), summary);
  return { summary };
}
