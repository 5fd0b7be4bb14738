import { fetchText } from '../fetch/fetch-text';
import { parseRobots, type RobotsInfo } from '../discovery/robots';
import { notFoundReason } from '../discovery/soft-404';

interface HostState {
  active: number;
  nextAt: number;
  robots?: Promise<RobotsInfo | null>;
  rules?: RobotsInfo | null;
}

/**
 * Politeness per host: at most `perHost` requests in flight (one when robots.txt
 * sets a Crawl-delay), spaced by that delay, and robots.txt rules loaded once.
 */
export class HostGate {
  private readonly hosts = new Map<string, HostState>();

  constructor(
    private readonly perHost: number,
    private readonly fetchFn: typeof fetch,
    private readonly timeoutMs: number,
  ) {}

  private state(host: string): HostState {
    let h = this.hosts.get(host);
    if (!h) this.hosts.set(host, (h = { active: 0, nextAt: 0 }));
    return h;
  }

  canStart(host: string, now = Date.now()): boolean {
    const h = this.state(host);
    const limit = h.rules?.crawlDelaySeconds() ? 1 : this.perHost;
    return h.active < limit && h.nextAt <= now;
  }

  acquire(host: string): void {
    const h = this.state(host);
    h.active++;
    const delay = h.rules?.crawlDelaySeconds();
    if (delay) h.nextAt = Date.now() + delay * 1000;
  }

  release(host: string): void {
    this.state(host).active--;
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

  /** robots.txt for an origin, fetched once; unreachable or missing means everything is allowed. */
  loadRobots(origin: string): Promise<RobotsInfo | null> {
    const h = this.state(new URL(origin).hostname);
    h.robots ??= (async () => {
      const url = `${origin}/robots.txt`;
      try {
        const res = await fetchText(url, { fetch: this.fetchFn, timeoutMs: this.timeoutMs });
        return notFoundReason(res) ? null : parseRobots(url, res.text);
      } catch {
        return null;
      }
    })().then((rules) => (h.rules = rules));
    return h.robots;
  }
}
