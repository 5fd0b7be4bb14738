import { vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { removeAllListeners, type ProtocolMap } from '@/lib/messaging';

type DnrRule = Browser.declarativeNetRequest.Rule;
type SessionUpdate = Browser.declarativeNetRequest.UpdateRuleOptions;

/**
 * The parts of the extension APIs that WXT's fake browser leaves unimplemented and the
 * background's setUp* functions need: host access (granted), and declarativeNetRequest's
 * session rules kept in memory, so a test can read which allow rules were in force when a
 * request reached its server, and make Chrome refuse the next update.
 */
export interface FakeExtension {
  sessionRules(): DnrRule[];
  /** The next updateSessionRules call rejects with this message (as Chrome does over its rule quota). */
  refuseNextSessionUpdate(message: string): void;
  /** Session rule updates take effect, and answer, this long after the call (as Chrome's take a round trip to the browser). */
  delaySessionUpdates(ms: number): void;
}

/** APIs a test can take away, as a browser without them (Firefox has no offscreen documents). */
type OptionalApi = 'offscreen' | 'scripting';
const optionalApis: Record<OptionalApi, unknown> = { offscreen: fakeBrowser.offscreen, scripting: fakeBrowser.scripting };

export function fakeExtension(options: { without?: OptionalApi[] } = {}): FakeExtension {
  removeAllListeners();
  for (const [name, api] of Object.entries(optionalApis)) Reflect.set(fakeBrowser, name, options.without?.includes(name as OptionalApi) ? undefined : api);
  fakeBrowser.reset();
  let rules: DnrRule[] = [];
  let refusal: string | null = null;
  let delayMs = 0;
  vi.spyOn(fakeBrowser.permissions, 'contains').mockImplementation(async () => true);
  // The crawl keepalive's call: any extension API call keeps an MV3 worker alive.
  vi.spyOn(fakeBrowser.runtime, 'getPlatformInfo').mockImplementation(async () => ({ os: 'linux', arch: 'x86-64', nacl_arch: 'x86-64' }));
  const dnr = fakeBrowser.declarativeNetRequest;
  vi.spyOn(dnr, 'updateDynamicRules').mockImplementation(async () => undefined);
  vi.spyOn(dnr, 'getSessionRules').mockImplementation(async () => [...rules]);
  vi.spyOn(dnr, 'updateSessionRules').mockImplementation(async (update: SessionUpdate) => {
    const failing = refusal;
    refusal = null;
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (failing !== null) throw new Error(failing);
    const removed = new Set(update.removeRuleIds ?? []);
    rules = [...rules.filter((r) => !removed.has(r.id)), ...(update.addRules ?? [])];
  });
  return {
    sessionRules: () => [...rules],
    refuseNextSessionUpdate: (message) => void (refusal = message),
    delaySessionUpdates: (ms) => void (delayMs = ms),
  };
}

/**
 * Sends a command as the side panel does and returns the worker's answer. The fake browser's
 * runtime.sendMessage only answers listeners that return `true`, while @webext-core/messaging's
 * listener answers with a promise, so the command goes through onMessage.trigger instead.
 */
export async function command<K extends keyof ProtocolMap>(type: K, ...data: Parameters<ProtocolMap[K]>): Promise<ReturnType<ProtocolMap[K]>> {
  const answers = (await fakeBrowser.runtime.onMessage.trigger({ id: 0, type, data: data[0], timestamp: Date.now() }, {}, () => undefined)) as unknown[];
  const answer = answers.find((a) => a !== undefined) as { res?: ReturnType<ProtocolMap[K]>; err?: { message?: string } } | undefined;
  if (!answer) throw new Error(`No listener answered ${type}`);
  if (answer.err) throw new Error(answer.err.message ?? `${type} failed`);
  return answer.res as ReturnType<ProtocolMap[K]>;
}
