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
  /** Port messages arrive this long after they are sent (as on a worker busy with other work). */
  delayPortMessages(ms: number): void;
  /** The pages' ends of every open port go away, as when the side panel is closed: the worker's ends hear it. */
  closePanels(): void;
  /**
   * The browser stops the worker: its ends of the open ports go away (the pages' ends hear it) and
   * its listeners with it, so a test can start a new worker's setUp* as the next wake-up does.
   */
  stopWorker(): void;
}

type PortListener<T extends unknown[]> = (...args: T) => void;

/** One of a runtime port's events: listeners added, and fired as Chrome fires them, one after another. */
function portEvent<T extends unknown[]>() {
  const listeners: Array<PortListener<T>> = [];
  return {
    addListener: (listener: PortListener<T>) => void listeners.push(listener),
    removeListener: (listener: PortListener<T>) => void listeners.splice(listeners.indexOf(listener) >>> 0, 1),
    hasListener: (listener: PortListener<T>) => listeners.includes(listener),
    fire: (...args: T) => {
      for (const listener of [...listeners]) listener(...args);
    },
  };
}

/**
 * One end of a `runtime.connect` port. As in Chrome: a message arrives a turn later (or `delay`
 * later) as a copy, in the order sent, and a disconnect reaches the other end after the messages
 * sent before it, firing `onDisconnect` there only; nothing crosses a disconnected port.
 */
class FakePort {
  readonly onMessage = portEvent<[unknown, FakePort]>();
  readonly onDisconnect = portEvent<[FakePort]>();
  other: FakePort | null = null;
  open = true;
  /** What this end sent that has not arrived yet: the next delivery waits for it. */
  private sent: Promise<void> = Promise.resolve();
  constructor(
    readonly name: string,
    private readonly delay: () => number,
  ) {}
  private send(arrive: (other: FakePort) => void): void {
    const other = this.other;
    const ms = this.delay();
    this.sent = this.sent.then(
      () =>
        new Promise<void>((resolve) =>
          setTimeout(() => {
            if (other?.open) arrive(other);
            resolve();
          }, ms),
        ),
    );
  }
  postMessage(message: unknown): void {
    if (!this.open) throw new Error('Attempting to use a disconnected port object');
    const copy = structuredClone(message);
    this.send((other) => other.onMessage.fire(copy, other));
  }
  disconnect(): void {
    if (!this.open) return;
    this.open = false;
    this.send((other) => {
      other.open = false;
      other.onDisconnect.fire(other);
    });
  }
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
  // runtime.connect: a page's port to the worker, whose end goes to the worker's onConnect listeners.
  let onConnect = portEvent<[FakePort]>();
  let portDelayMs = 0;
  const portDelay = () => portDelayMs;
  const ports: Array<{ page: FakePort; worker: FakePort }> = [];
  Reflect.set(fakeBrowser.runtime, 'onConnect', onConnect);
  Reflect.set(fakeBrowser.runtime, 'connect', (info?: { name?: string }) => {
    const page = new FakePort(info?.name ?? '', portDelay);
    const worker = new FakePort(info?.name ?? '', portDelay);
    page.other = worker;
    worker.other = page;
    ports.push({ page, worker });
    setTimeout(() => onConnect.fire(worker), 0);
    return page;
  });
  return {
    sessionRules: () => [...rules],
    refuseNextSessionUpdate: (message) => void (refusal = message),
    delaySessionUpdates: (ms) => void (delayMs = ms),
    delayPortMessages: (ms) => void (portDelayMs = ms),
    closePanels: () => {
      for (const { page } of ports.splice(0)) page.disconnect();
    },
    stopWorker: () => {
      for (const { worker } of ports.splice(0)) worker.disconnect();
      removeAllListeners();
      // The stopped worker's listeners are gone; the next worker adds its own.
      onConnect = portEvent<[FakePort]>();
      Reflect.set(fakeBrowser.runtime, 'onConnect', onConnect);
    },
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
