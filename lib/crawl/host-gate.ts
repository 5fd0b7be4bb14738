import { fetchText } from '../fetch/fetch-text';
import { parseRobots, type RobotsInfo } from '../discovery/robots';
import { notFoundReason } from '../fetch/soft-404';
import { createNetworkGuard } from '../url/private-network';

interface HostState {
  active: number;
  /** Requests that had a slot, gave it up while their page converted, and wait to take one again (a Markdown twin). */
  waiters: Array<() => void>;
  nextAt: number;
  robots?: Promise<RobotsInfo | null>;
  rules?: RobotsInfo | null;
}

/**
 * The longest Crawl-delay honoured unless the user lifts the cap: 30 s keeps a 500-page crawl
 * under about 4 h 10 min, while `Crawl-delay: 3600` would make it three weeks. Sites ask for such
 * values to keep crawlers away, and a crawl the user watches in a side panel cannot last weeks.
 */
export const DEFAULT_CRAWL_DELAY_CAP_S = 30;

/** How a host is paced, for the progress card. */
export interface HostPace {
  host: string;
  /** What robots.txt asks for, in seconds. */
  askedS: number;
  /** What Scout waits between requests, in seconds (the ask, or the cap). */
  usedS: number;
}

/**
 * Politeness per host: at most `perHost` requests in flight (one when robots.txt
 * sets a Crawl-delay), spaced by that delay up to `crawlDelayCapS` (null: no cap), robots.txt
 * rules loaded once, and a host that answered 429 or 503 with Retry-After left alone that long.
 */
export class HostGate {
  private readonly hosts = new Map<string, HostState>();

  constructor(
    private readonly perHost: number,
    private readonly fetchFn: typeof fetch,
    private readonly timeoutMs: number,
    private readonly crawlDelayCapS: number | null = DEFAULT_CRAWL_DELAY_CAP_S,
  ) {}

  private state(host: string): HostState {
    let h = this.hosts.get(host);
    if (!h) this.hosts.set(host, (h = { active: 0, nextAt: 0, waiters: [] }));
    return h;
  }

  canStart(host: string, now = Date.now()): boolean {
    const h = this.state(host);
    const limit = this.limit(h);
    // A page waiting to finish its twin goes before new pages: it holds a body in memory.
    return h.active < limit && h.nextAt <= now && h.waiters.length === 0;
  }

  acquire(host: string): void {
    this.take(this.state(host));
  }

  release(host: string): void {
    const h = this.state(host);
    h.active--;
    this.serve(h);
  }

  /**
   * A slot for a request that comes after its page's conversion (the Markdown twin the page
   * names): now if one is free, else the moment one is released. Resolves once acquired.
   */
  acquireWhenFree(host: string): Promise<void> {
    const h = this.state(host);
    const acquired = new Promise<void>((resolve) => h.waiters.push(resolve));
    this.serve(h);
    return acquired;
  }

  /** Hands free slots to waiters, first come first served; a Crawl-delay is waited out on a timer (no release may follow). */
  private serve(h: HostState): void {
    while (h.waiters.length > 0 && h.active < this.limit(h)) {
      const wait = h.nextAt - Date.now();
      if (wait > 0) {
        setTimeout(() => this.serve(h), wait);
        return;
      }
      this.take(h);
      h.waiters.shift()?.();
    }
  }

  private limit(h: HostState): number {
    return h.rules?.crawlDelaySeconds() ? 1 : this.perHost;
  }

  /** The delay Scout keeps between requests to a host, in seconds: robots.txt's Crawl-delay up to the cap. */
  private delayOf(h: HostState): number {
    const asked = h.rules?.crawlDelaySeconds() ?? 0;
    return this.crawlDelayCapS === null ? asked : Math.min(asked, this.crawlDelayCapS);
  }

  private take(h: HostState): void {
    h.active++;
    const delay = this.delayOf(h);
    if (delay) h.nextAt = Math.max(h.nextAt, Date.now() + delay * 1000);
  }

  /**
   * The host asked for a pause (429 or 503 with Retry-After): no new request to it starts before
   * then. The request that got the answer waits it out too (page-fetcher), so the whole host is slowed, not one URL.
   */
  slowDown(host: string, waitMs: number, now = Date.now()): void {
    const h = this.state(host);
    h.nextAt = Math.max(h.nextAt, now + waitMs);
  }

  /** Hosts whose robots.txt asks for a Crawl-delay, with the delay kept. */
  paces(): HostPace[] {
    const out: HostPace[] = [];
    for (const [host, h] of this.hosts) {
      const askedS = h.rules?.crawlDelaySeconds() ?? 0;
      if (askedS > 0) out.push({ host, askedS, usedS: this.delayOf(h) });
    }
    return out;
  }

  /** When the next paced host becomes free, if any is waiting on a delay. */
  nextFreeAt(now = Date.now()): number | null {
    const times = [...this.hosts.values()].map((h) => h.nextAt).filter((t) => t > now);
    return times.length ? Math.min(...times) : null;
  }

  /** Rules already loaded for a host (undefined while unknown). */
  rules(host: string): RobotsInfo | null | undefined {
    return this.hosts.get(host)?.rules;
  }

  /**
   * The origin's robots.txt as the site's discovery read it moments ago (its text, or null: the
   * site has none): loadRobots then asks the site nothing.
   */
  knowRobots(origin: string, text: string | null): void {
    const h = this.state(new URL(origin).hostname);
    if (h.robots) return;
    const rules = text === null ? null : parseRobots(`${origin}/robots.txt`, text);
    h.rules = rules;
    h.robots = Promise.resolve(rules);
  }

  /** robots.txt for an origin, fetched once; unreachable or missing means everything is allowed. */
  loadRobots(origin: string): Promise<RobotsInfo | null> {
    const h = this.state(new URL(origin).hostname);
    h.robots ??= (async () => {
      const url = `${origin}/robots.txt`;
      try {
        // A robots.txt that redirects into the user's network is not followed there (its rules would be the target's anyway).
        const res = await fetchText(url, { fetch: this.fetchFn, timeoutMs: this.timeoutMs, checkRedirect: createNetworkGuard(origin) });
        return notFoundReason(res) ? null : parseRobots(url, res.text);
      } catch {
        return null;
      }
    })().then((rules) => (h.rules = rules));
    return h.robots;
  }
}
