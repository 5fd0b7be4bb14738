/**
 * Figures bench/crawl.ts derives from one crawl: how close a crawl over a slow network comes to
 * the politeness floor, how well its steps overlap, and whether it keeps its pace as it grows.
 * Pure functions of what the fixture server logged and what the job recorded.
 */
import type { FixtureRequest } from '../tests/fixtures/server';

/** What the network figures need to know about one crawl. */
export interface CrawlWindow {
  /** The fixture server's log, and the crawled host in it. */
  requests: FixtureRequest[];
  host: string;
  /** job.startedAt and job.endedAt. */
  from: number;
  to: number;
  pages: number;
  /** Body bytes of the crawl's responses, for the bandwidth floor. */
  bytes: number;
  /** The job's setting: requests in flight per host. */
  perHost: number;
  latencyMs: number;
  bandwidthBytesPerSecond?: number;
  /** The job's counters: time summed over requests per step (see lib/crawl/progress.ts). */
  counters: Record<string, number>;
}

export interface NetworkFigures {
  wallMs: number;
  /** pages × latency ÷ per-host concurrency, or the bytes at the capped bandwidth if that is longer. */
  politenessFloorMs: number;
  latencyFloorMs: number;
  bandwidthFloorMs: number;
  ratio: number;
  /** Requests the server answered for the crawl's host while the job ran (robots.txt, redirects, 404s included). */
  requests: number;
  /** The same floor counted over every request, not only stored pages. */
  requestFloorMs: number;
  /** Mean requests in flight at the server (ideal: perHost), and as a share of perHost. */
  meanInFlight: number;
  slotUse: number;
  /** Share of the wall with at least one request in flight. */
  networkBusy: number;
  /** Time summed over requests, per step, as a share of the slot time (wall × perHost). */
  fetchShare: number;
  convertShare: number;
  /** Share of the wall with a write transaction open (the writer runs beside the fetches). */
  storeShare: number;
  /** (fetch + convert + store) ÷ wall: how many steps were at work at once, on average. */
  overlap: number;
}

export function networkFigures(w: CrawlWindow): NetworkFigures {
  const wallMs = w.to - w.from;
  const served = w.requests.filter((r) => r.host === w.host && r.at >= w.from && r.at <= w.to);
  const spans = served.map((r) => [r.at, Math.min(r.endedAt ?? w.to, w.to)] as const);
  const inFlightMs = spans.reduce((n, [a, b]) => n + (b - a), 0);
  const latencyFloorMs = (w.pages * w.latencyMs) / w.perHost;
  const bandwidthFloorMs = w.bandwidthBytesPerSecond ? (w.bytes * 1000) / w.bandwidthBytesPerSecond : 0;
  const politenessFloorMs = Math.max(latencyFloorMs, bandwidthFloorMs);
  const slotMs = wallMs * w.perHost;
  const c = (k: string) => w.counters[k] ?? 0;
  return {
    wallMs,
    politenessFloorMs,
    latencyFloorMs,
    bandwidthFloorMs,
    ratio: wallMs / politenessFloorMs,
    requests: served.length,
    requestFloorMs: (served.length * w.latencyMs) / w.perHost,
    meanInFlight: inFlightMs / wallMs,
    slotUse: inFlightMs / slotMs,
    networkBusy: unionMs(spans) / wallMs,
    fetchShare: c('fetchMs') / slotMs,
    convertShare: c('convertMs') / slotMs,
    storeShare: c('storeMs') / wallMs,
    overlap: (c('fetchMs') + c('convertMs') + c('storeMs')) / wallMs,
  };
}

/** Length of the union of intervals. */
function unionMs(spans: ReadonlyArray<readonly [number, number]>): number {
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  let total = 0;
  let end = -Infinity;
  for (const [a, b] of sorted) {
    if (b <= end) continue;
    total += b - Math.max(a, end);
    end = b;
  }
  return total;
}

export interface PaceFigures {
  pages: number;
  /** Pages per second over the first and the last tenth of the pages stored, and last ÷ first. */
  firstTenth: number;
  lastTenth: number;
  ratio: number;
  /** Pages/s over each tenth in turn: a trend shows as a slope, machine noise as scatter. */
  tenths: number[];
}

/**
 * Whether a crawl keeps its pace: pages/s over the first tenth of the stored pages against the
 * last tenth, from each page's write time. Measured between stored pages (not from the job's
 * start), so seeding and the first fetch don't count against the first tenth.
 */
export function pace(writtenAt: number[]): PaceFigures | null {
  const t = [...writtenAt].sort((a, b) => a - b);
  const n = t.length;
  const k = Math.floor(n / 10);
  if (k < 2) return null;
  const rate = (a: number, b: number) => (k * 1000) / Math.max(1, (t[b] ?? 0) - (t[a] ?? 0));
  const firstTenth = rate(0, k);
  const lastTenth = rate(n - 1 - k, n - 1);
  const tenths = Array.from({ length: 10 }, (_, i) => rate(Math.min(n - 1 - k, i * k), Math.min(n - 1, (i + 1) * k)));
  return { pages: n, firstTenth, lastTenth, ratio: lastTenth / firstTenth, tenths };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const s1 = (ms: number) => (ms / 1000).toFixed(1);
const pc = (x: number) => `${(100 * x).toFixed(0)} %`;

export const NETWORK_HEADER = [
  '| corpus | pages | requests | latency ms (± jitter) | Mbit/s | per host | wall s (median, min–max) | politeness floor s | wall ÷ floor | same-browser floor s | mean in flight (slot use) | network busy | fetch / convert share of slot time | store share of wall | overlap (steps at once) |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
];

/** One Markdown row of network figures: each column the median over the runs. */
export function networkRow(name: string, shape: { latencyMs?: number; jitterMs?: number; bandwidthBytesPerSecond?: number }, runs: Array<{ pages: number; perHost: number; floorMs: number; network?: NetworkFigures }>): string | null {
  const rs = runs.flatMap((r) => (r.network ? [{ ...r, n: r.network }] : []));
  if (rs.length === 0) return null;
  const m = (f: (r: (typeof rs)[number]) => number) => median(rs.map(f));
  const walls = rs.map((r) => r.n.wallMs);
  const mbit = shape.bandwidthBytesPerSecond ? ((shape.bandwidthBytesPerSecond * 8) / 1e6).toFixed(0) : '–';
  return `| ${name} | ${m((r) => r.pages)} | ${m((r) => r.n.requests)} | ${shape.latencyMs ?? 0} (± ${shape.jitterMs ?? 0}) | ${mbit} | ${m((r) => r.perHost)} | ${s1(median(walls))} (${s1(Math.min(...walls))}–${s1(Math.max(...walls))}) | ${s1(m((r) => r.n.politenessFloorMs))} | ${m((r) => r.n.ratio).toFixed(2)}× | ${s1(m((r) => r.floorMs))} | ${m((r) => r.n.meanInFlight).toFixed(2)} (${pc(m((r) => r.n.slotUse))}) | ${pc(m((r) => r.n.networkBusy))} | ${pc(m((r) => r.n.fetchShare))} / ${pc(m((r) => r.n.convertShare))} | ${pc(m((r) => r.n.storeShare))} | ${m((r) => r.n.overlap).toFixed(2)} |`;
}

export const PACE_HEADER = ['| corpus | pages | wall s (median) | pages/s, first tenth | pages/s, last tenth | last ÷ first (median, min–max) |', '|---|---:|---:|---:|---:|---:|'];

/** One Markdown row of pace figures, medians over the runs. */
export function paceRow(name: string, runs: Array<{ wallMs: number; pace: PaceFigures | null }>): string | null {
  const ps = runs.flatMap((r) => (r.pace ? [r.pace] : []));
  if (ps.length === 0) return null;
  const ratios = ps.map((p) => p.ratio);
  return `| ${name} | ${median(ps.map((p) => p.pages))} | ${s1(median(runs.map((r) => r.wallMs)))} | ${median(ps.map((p) => p.firstTenth)).toFixed(1)} | ${median(ps.map((p) => p.lastTenth)).toFixed(1)} | ${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}) |`;
}
