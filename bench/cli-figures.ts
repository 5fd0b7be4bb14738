/**
 * The figures of bench/cli.ts, apart from the runs so a test can hold them: what one child process
 * used (its own getrusage, reported by a small --import wrapper as it exits), medians over runs,
 * and a V8 CPU profile (node --cpu-prof) summed by step of the page pipeline.
 */

/** What one child process used, as the wrapper wrote it: process.resourceUsage() at 'exit'. */
export interface ChildUsage {
  /** Microseconds, as process.resourceUsage() gives them. */
  userCPUTime: number;
  systemCPUTime: number;
  /** Peak resident set, kilobytes (getrusage's ru_maxrss: the process's VmHWM on Linux). */
  maxRSS: number;
}

/**
 * Installed with `node --import <file>` in each measured child: writes its resource usage to the
 * file named by SCOUT_BENCH_USAGE when the process exits, however it exits (a command that calls
 * process.exit() too). getrusage(RUSAGE_SELF) covers every thread of the process.
 */
export const USAGE_WRAPPER = `import { writeFileSync } from 'node:fs';
const file = process.env.SCOUT_BENCH_USAGE;
if (file) process.on('exit', () => {
  const { userCPUTime, systemCPUTime, maxRSS } = process.resourceUsage();
  writeFileSync(file, JSON.stringify({ userCPUTime, systemCPUTime, maxRSS }));
});
`;

/** The wrapper's record, checked: a run whose figures are missing or garbled fails loudly. */
export function parseUsage(text: string): ChildUsage {
  const value = JSON.parse(text) as Partial<Record<keyof ChildUsage, unknown>>;
  for (const key of ['userCPUTime', 'systemCPUTime', 'maxRSS'] as const) {
    if (typeof value[key] !== 'number' || !Number.isFinite(value[key]) || value[key] < 0) throw new Error(`usage record without a valid ${key}: ${text.slice(0, 200)}`);
  }
  return value as ChildUsage;
}

/** One measured run of one contender. */
export interface RunFigures {
  wallMs: number;
  cpuMs: number;
  peakRssMb: number;
  pages: number;
  /** CPU per stored page; NaN when nothing was stored. */
  cpuPerPageMs: number;
}

export function runFigures(wallMs: number, usage: ChildUsage, pages: number): RunFigures {
  const cpuMs = (usage.userCPUTime + usage.systemCPUTime) / 1000;
  return { wallMs, cpuMs, peakRssMb: usage.maxRSS / 1024, pages, cpuPerPageMs: pages > 0 ? cpuMs / pages : Number.NaN };
}

/** The median; the mean of the middle two for an even count. NaN for none. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** Each figure's median over the runs (each figure on its own: the runs need not agree on which run is the median). */
export function medians(runs: readonly RunFigures[]): RunFigures {
  const m = (f: (r: RunFigures) => number) => median(runs.map(f));
  return { wallMs: m((r) => r.wallMs), cpuMs: m((r) => r.cpuMs), peakRssMb: m((r) => r.peakRssMb), pages: m((r) => r.pages), cpuPerPageMs: m((r) => r.cpuPerPageMs) };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
/** The parts of a .cpuprofile (V8's Profiler.Profile) read here. */
export interface CpuProfile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

/** The folder or package a frame's code comes from: `lib/convert`, `cli`, `pkg:linkedom` (Node's bundled undici as `pkg:undici`), `node:internal`, or a native name. */
export function frameSource(url: string, functionName: string, root: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : `(native) ${functionName || 'anonymous'}`;
  // Node's own fetch is the undici it bundles: its frames are fetch work, as the package's are.
  if (url.startsWith('node:internal/deps/undici/')) return 'pkg:undici';
  if (url.startsWith('node:')) return 'node:internal';
  const path = url.startsWith('file://') ? decodeURIComponent(new URL(url).pathname) : url;
  const pkg = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
  if (pkg) return `pkg:${pkg[1]}`;
  const base = root.endsWith('/') ? root : `${root}/`;
  if (!path.startsWith(base)) return 'other';
  const parts = path.slice(base.length).split('/');
  // lib/<folder>/… by folder; a file straight under lib/ (lib/hash.ts) by itself.
  if (parts[0] === 'lib') return parts.length > 2 ? `lib/${parts[1]}` : `lib/${(parts[1] ?? '').replace(/\.[^.]+$/, '')}`;
  return parts[0] ?? 'other';
}

/**
 * A step of the page pipeline for each source; sources not listed fall to the packages' rule in
 * `stepOf`. Ordered lookups by prefix would be as good; a table keeps the split reviewable.
 */
export const STEP_OF_SOURCE: Record<string, string> = {
  'lib/convert': 'conversion',
  'pkg:linkedom': 'conversion',
  'pkg:turndown': 'conversion',
  'pkg:@joplin/turndown-plugin-gfm': 'conversion',
  'pkg:@mixmark-io/domino': 'conversion',
  'pkg:htmlparser2': 'conversion',
  'lib/store': 'store (Dexie on fake-indexeddb)',
  'pkg:dexie': 'store (Dexie on fake-indexeddb)',
  'pkg:fake-indexeddb': 'store (Dexie on fake-indexeddb)',
  'lib/fetch': 'fetch (undici, guard)',
  'lib/url': 'fetch (undici, guard)',
  'pkg:undici': 'fetch (undici, guard)',
  'lib/hash': 'hashing',
  'lib/generate': 'generation (llms.txt, tokens)',
  'lib/tokens': 'generation (llms.txt, tokens)',
  'lib/describe': 'generation (llms.txt, tokens)',
  'lib/output': 'generation (llms.txt, tokens)',
  'pkg:gpt-tokenizer': 'generation (llms.txt, tokens)',
  'lib/crawl': 'crawl (queue, links, writer)',
  'lib/jobs': 'crawl (queue, links, writer)',
  'lib/discovery': 'discovery',
  'lib/headless': 'headless driver, output files',
  cli: 'headless driver, output files',
  'pkg:tsx': 'tsx transform (profiling run only)',
  'pkg:esbuild': 'tsx transform (profiling run only)',
  'pkg:get-tsconfig': 'tsx transform (profiling run only)',
};

/**
 * The step a sample belongs to: that of its innermost frame whose source the table knows — so
 * linkedom called by the converter is conversion, and structuredClone called by fake-indexeddb is
 * the store. A sample with no such frame (Node's own streams and timers, the garbage collector)
 * is named by its leaf's source.
 */
export function stepOf(stack: readonly { source: string }[]): string {
  for (let i = stack.length - 1; i >= 0; i--) {
    const step = STEP_OF_SOURCE[(stack[i] as { source: string }).source];
    if (step) return step;
  }
  return stack.at(-1)?.source ?? '(none)';
}

export interface ProfileSplit {
  totalMs: number;
  /** Milliseconds per step, largest first. */
  steps: Array<{ step: string; ms: number }>;
  /** Self time by source of the leaf frame (where the CPU ran), largest first. */
  sources: Array<{ source: string; ms: number }>;
  /** Self time by function, the largest `top`. */
  functions: Array<{ name: string; ms: number }>;
}

/** Sums a profile's samples (each weighted by its time delta) by step, by leaf source and by function. */
export function splitProfile(profile: CpuProfile, root: string, top = 20): ProfileSplit {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stepCache = new Map<number, string>();
  const stackOf = (id: number) => {
    const stack: { source: string }[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const n = byId.get(at);
      if (n) stack.unshift({ source: frameSource(n.callFrame.url, n.callFrame.functionName, root) });
    }
    return stack;
  };
  const steps = new Map<string, number>();
  const sources = new Map<string, number>();
  const functions = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, ms: number) => m.set(k, (m.get(k) ?? 0) + ms);
  let totalMs = 0;
  const samples = profile.samples ?? [];
  for (let i = 0; i < samples.length; i++) {
    const id = samples[i] as number;
    const node = byId.get(id);
    if (!node) continue;
    // V8's delta i is the time before sample i; the time a sample stands for is the next one's delta.
    const ms = (profile.timeDeltas?.[i + 1] ?? 0) / 1000;
    if (node.callFrame.functionName === '(idle)') continue;
    totalMs += ms;
    let step = stepCache.get(id);
    if (step === undefined) stepCache.set(id, (step = stepOf(stackOf(id))));
    add(steps, step, ms);
    const source = frameSource(node.callFrame.url, node.callFrame.functionName, root);
    add(sources, source, ms);
    add(functions, `${node.callFrame.functionName || '(anonymous)'} [${source}]`, ms);
  }
  const sorted = <K extends string>(m: Map<string, number>, key: K) =>
    [...m].sort((a, b) => b[1] - a[1]).map(([k, ms]) => ({ [key]: k, ms }) as Record<K, string> & { ms: number });
  return { totalMs, steps: sorted(steps, 'step'), sources: sorted(sources, 'source'), functions: sorted(functions, 'name').slice(0, top) };
}
