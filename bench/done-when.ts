/**
 * The pure parts of `npm run bench` (bench/bench.ts): its command line, the figures it reads from
 * the results files of bench/crawl.ts and bench/cli.ts, and the done-when table — each row a
 * figure of one build against its target, the baseline's figure beside it. Kept apart from the
 * driver so a test can hold them without launching a browser.
 */
import { parseArgs } from 'node:util';
import { allChromium, type CpuSample } from './cpu';
import { median } from './cli-figures';

/** The three measurements the table is read from; each runs its builds interleaved. */
export const PARTS = ['loopback', 'latency', 'cli'] as const;
export type Part = (typeof PARTS)[number];

export interface BenchArgs {
  /** A git revision whose builds (extension and CLI) are made in a worktree and measured beside this one. */
  baseline?: string;
  /** Builds already made, instead of a revision: the E2E extension's folder, the CLI bundle's scout.js. */
  baselineExtension?: string;
  baselineCli?: string;
  runs: Record<Part, number>;
  /** The shaped run's time to first byte, ms. */
  latencyMs: number;
  parts: Part[];
  /** Where the table goes, without extension: `<out>.json` and `<out>.md`. */
  out?: string;
  /** Where each part's own results file goes; a part whose file is already there is not run again. */
  work?: string;
  /** Build this checkout's extension and CLI first (the default), or measure what .output/ holds. */
  build: boolean;
  /** What else ran on the machine, for the record. */
  note: string;
}

function positiveInteger(name: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} takes a whole number of runs, at least 1, not "${text}"`);
  return n;
}

/**
 * `npm run bench -- [--baseline <rev> | --baseline-extension <dir> --baseline-cli <file>] [--runs 3]
 * [--loopback-runs N] [--latency-runs N] [--cli-runs N] [--latency 80] [--parts loopback,latency,cli]
 * [--out <path>] [--work <dir>] [--no-build] [--note <text>]`. Unknown options are refused, so a
 * misspelt flag cannot silently measure something else.
 */
export function parseBenchArgs(argv: string[]): BenchArgs {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      baseline: { type: 'string' },
      'baseline-extension': { type: 'string' },
      'baseline-cli': { type: 'string' },
      runs: { type: 'string', default: '3' },
      'loopback-runs': { type: 'string' },
      'latency-runs': { type: 'string' },
      'cli-runs': { type: 'string' },
      latency: { type: 'string', default: '80' },
      parts: { type: 'string', default: PARTS.join(',') },
      out: { type: 'string' },
      work: { type: 'string' },
      'no-build': { type: 'boolean', default: false },
      note: { type: 'string', default: '' },
    },
  });
  if (values.baseline !== undefined && (values['baseline-extension'] !== undefined || values['baseline-cli'] !== undefined)) {
    throw new Error('--baseline builds its own extension and CLI: give it, or --baseline-extension / --baseline-cli, not both');
  }
  if (values.baseline === '') throw new Error('--baseline needs a git revision');
  const runs = positiveInteger('runs', values.runs);
  const parts = values.parts.split(',').map((p) => p.trim());
  for (const p of parts) if (!(PARTS as readonly string[]).includes(p)) throw new Error(`--parts takes ${PARTS.join(', ')}; not "${p}"`);
  const latencyMs = Number(values.latency);
  if (!Number.isFinite(latencyMs) || latencyMs <= 0) throw new Error(`--latency takes a time in ms above 0, not "${values.latency}"`);
  return {
    baseline: values.baseline,
    baselineExtension: values['baseline-extension'],
    baselineCli: values['baseline-cli'],
    runs: {
      loopback: values['loopback-runs'] === undefined ? runs : positiveInteger('loopback-runs', values['loopback-runs']),
      latency: values['latency-runs'] === undefined ? runs : positiveInteger('latency-runs', values['latency-runs']),
      cli: values['cli-runs'] === undefined ? runs : positiveInteger('cli-runs', values['cli-runs']),
    },
    latencyMs,
    parts: PARTS.filter((p) => parts.includes(p)),
    out: values.out,
    work: values.work,
    build: !values['no-build'],
    note: values.note,
  };
}

/** What one build measured, medians over its runs; NaN for a part not run. */
export interface BuildFigures {
  /** All of Chromium's CPU per stored page on loopback, as bench/crawl.ts's CPU table gives it. */
  chromiumCpuPerPageMs: number;
  loopbackWallMs: number;
  /** The same-browser floor: the panel's fetch + DOMParser of the same URLs at the same concurrency. */
  sameBrowserFloorMs: number;
  loopbackRatio: number;
  loopbackPages: number;
  latencyWallMs: number;
  politenessFloorMs: number;
  latencyRatio: number;
  cliCpuPerPageMs: number;
  cliPeakRssMb: number;
  cliWallMs: number;
  cliPages: number;
}

/** What every build is judged against in the same run. */
export interface SharedFigures {
  /** crawlee + turndown's wall on the same site (bench/cli-peer.ts), median. */
  peerWallMs: number;
  peerPages: number;
}

export const EMPTY_FIGURES: BuildFigures = {
  chromiumCpuPerPageMs: Number.NaN,
  loopbackWallMs: Number.NaN,
  sameBrowserFloorMs: Number.NaN,
  loopbackRatio: Number.NaN,
  loopbackPages: Number.NaN,
  latencyWallMs: Number.NaN,
  politenessFloorMs: Number.NaN,
  latencyRatio: Number.NaN,
  cliCpuPerPageMs: Number.NaN,
  cliPeakRssMb: Number.NaN,
  cliWallMs: Number.NaN,
  cliPages: Number.NaN,
};

/** The parts of bench/crawl.ts's results file read here. */
interface CrawlResults {
  corpora: Record<string, { runs: Array<{ corpus?: string; build?: string; pages: number; wallMs: number; floorMs: number; network?: { ratio: number; politenessFloorMs: number; wallMs: number } }>; cpuMsPerPage?: { crawl?: CpuSample } }>;
}

/** The results entry of `corpus` measured for `build` (its runs carry both). */
function crawlEntry(results: CrawlResults, corpus: string, build: string) {
  const entries = Object.values(results.corpora).filter((e) => e.runs.length > 0 && e.runs.every((r) => r.corpus === corpus && r.build === build));
  if (entries.length > 1) throw new Error(`${entries.length} results for ${corpus} by ${build}: measure one converter plan at a time`);
  return entries[0];
}

/** Loopback figures of `build` from bench/crawl.ts's results; NaN when that build was not measured. */
export function loopbackFigures(results: CrawlResults, corpus: string, build: string): Pick<BuildFigures, 'chromiumCpuPerPageMs' | 'loopbackWallMs' | 'sameBrowserFloorMs' | 'loopbackRatio' | 'loopbackPages'> {
  const entry = crawlEntry(results, corpus, build);
  if (!entry) return { chromiumCpuPerPageMs: Number.NaN, loopbackWallMs: Number.NaN, sameBrowserFloorMs: Number.NaN, loopbackRatio: Number.NaN, loopbackPages: Number.NaN };
  const runs = entry.runs;
  const m = (f: (r: (typeof runs)[number]) => number) => median(runs.map(f));
  return {
    // The CPU table's own figure (every process's median, summed), so the two agree in one run.
    chromiumCpuPerPageMs: entry.cpuMsPerPage?.crawl ? allChromium(entry.cpuMsPerPage.crawl) : Number.NaN,
    loopbackWallMs: m((r) => r.wallMs),
    sameBrowserFloorMs: m((r) => r.floorMs),
    // Each run against its own floor, then the median: a run slowed by the machine is slowed in both.
    loopbackRatio: m((r) => r.wallMs / r.floorMs),
    loopbackPages: m((r) => r.pages),
  };
}

/** Shaped-network figures of `build`: wall against the politeness floor (bench/figures.ts). */
export function latencyFigures(results: CrawlResults, corpus: string, build: string): Pick<BuildFigures, 'latencyWallMs' | 'politenessFloorMs' | 'latencyRatio'> {
  const runs = (crawlEntry(results, corpus, build)?.runs ?? []).flatMap((r) => (r.network ? [r.network] : []));
  return { latencyWallMs: median(runs.map((n) => n.wallMs)), politenessFloorMs: median(runs.map((n) => n.politenessFloorMs)), latencyRatio: median(runs.map((n) => n.ratio)) };
}

/** The parts of bench/cli.ts's results file read here. */
interface CliResults {
  results: Record<string, { median: { wallMs: number; cpuPerPageMs: number; peakRssMb: number; pages: number } }>;
}

export const PEER_NAME = 'crawlee CheerioCrawler + turndown';

/** The CLI figures of the build bench/cli.ts ran under `label`. */
export function cliFigures(results: CliResults, label: string): Pick<BuildFigures, 'cliCpuPerPageMs' | 'cliPeakRssMb' | 'cliWallMs' | 'cliPages'> {
  const m = results.results[`Scout CLI (${label})`]?.median;
  return { cliCpuPerPageMs: m?.cpuPerPageMs ?? Number.NaN, cliPeakRssMb: m?.peakRssMb ?? Number.NaN, cliWallMs: m?.wallMs ?? Number.NaN, cliPages: m?.pages ?? Number.NaN };
}

export function peerFigures(results: CliResults | undefined): SharedFigures {
  const m = results?.results[PEER_NAME]?.median;
  return { peerWallMs: m?.wallMs ?? Number.NaN, peerPages: m?.pages ?? Number.NaN };
}

/** One line of "Done when": a figure, the limit it must stay at or under (or strictly under). */
export interface Criterion {
  id: string;
  what: string;
  unit: 'ms' | 'MB' | 's' | '×';
  figure: (f: BuildFigures) => number;
  /** A fixed limit, or one measured in the same run (the peer's wall). */
  limit: number | ((shared: SharedFigures) => number);
  /** How the limit reads in the table. */
  limitText: (limit: number) => string;
  /** Below the limit, not at it. */
  strict?: boolean;
}

const fmt = (x: number, unit: Criterion['unit']): string => {
  if (!Number.isFinite(x)) return '–';
  if (unit === 's') return `${(x / 1000).toFixed(1)} s`;
  if (unit === '×') return `${x.toFixed(2)}×`;
  return `${x.toFixed(unit === 'ms' ? 1 : 0)} ${unit}`;
};

/**
 * Issue 33's first "Done when" bullet, one criterion per figure, on the Python docs: all-Chromium
 * CPU per page ≤ 35 ms by bench/crawl.ts's own figure, loopback wall ≤ 2× the same-browser floor,
 * the 80 ms latency wall ≤ 1.3× the politeness floor, the CLI's CPU per page ≤ 50 ms and peak
 * memory ≤ 300 MB, and its wall below crawlee + turndown's in the same run.
 */
export const ISSUE_33: Criterion[] = [
  { id: 'chromium-cpu', what: 'all-Chromium CPU per page, loopback (bench/crawl.ts)', unit: 'ms', figure: (f) => f.chromiumCpuPerPageMs, limit: 35, limitText: (l) => `≤ ${l} ms` },
  { id: 'loopback-ratio', what: 'loopback wall ÷ same-browser floor', unit: '×', figure: (f) => f.loopbackRatio, limit: 2, limitText: (l) => `≤ ${l}×` },
  { id: 'latency-ratio', what: 'latency wall ÷ politeness floor', unit: '×', figure: (f) => f.latencyRatio, limit: 1.3, limitText: (l) => `≤ ${l}×` },
  { id: 'cli-cpu', what: "CLI's CPU per page (scout generate)", unit: 'ms', figure: (f) => f.cliCpuPerPageMs, limit: 50, limitText: (l) => `≤ ${l} ms` },
  { id: 'cli-rss', what: "CLI's peak memory (RSS)", unit: 'MB', figure: (f) => f.cliPeakRssMb, limit: 300, limitText: (l) => `≤ ${l} MB` },
  { id: 'cli-wall', what: "CLI's wall, against crawlee + turndown's in the same run", unit: 's', figure: (f) => f.cliWallMs, limit: (s) => s.peerWallMs, limitText: (l) => `< ${fmt(l, 's')} (the peer's)`, strict: true },
];

export type Verdict = 'pass' | 'fail' | 'not measured';

export interface Row {
  id: string;
  what: string;
  target: string;
  limit: number;
  base: number | null;
  new: number;
  verdict: Verdict;
  /** The baseline against the same target, for reading the change; null without a baseline. */
  baseVerdict: Verdict | null;
}

export function judge(value: number, limit: number, strict = false): Verdict {
  if (!Number.isFinite(value) || !Number.isFinite(limit)) return 'not measured';
  return (strict ? value < limit : value <= limit) ? 'pass' : 'fail';
}

/** The table's rows: each criterion's figure for the new build (judged) and for the baseline (shown beside it). */
export function doneWhenRows(criteria: readonly Criterion[], current: BuildFigures, base: BuildFigures | null, shared: SharedFigures): Row[] {
  return criteria.map((c) => {
    const limit = typeof c.limit === 'number' ? c.limit : c.limit(shared);
    const value = c.figure(current);
    const baseValue = base ? c.figure(base) : null;
    return {
      id: c.id,
      what: c.what,
      target: c.limitText(limit),
      limit,
      base: baseValue,
      new: value,
      verdict: judge(value, limit, c.strict),
      baseVerdict: baseValue === null ? null : judge(baseValue, limit, c.strict),
    };
  });
}

/** Every row measured and passed; a row not measured is not a pass. */
export const allPass = (rows: readonly Row[]): boolean => rows.length > 0 && rows.every((r) => r.verdict === 'pass');

/** The Markdown table: one line per row, base and new figures, the new build's verdict. */
export function doneWhenTable(criteria: readonly Criterion[], rows: readonly Row[], labels: { base: string | null; new: string }): string {
  const unitOf = new Map(criteria.map((c) => [c.id, c.unit]));
  const head = labels.base === null ? ['| done when | target | new |  |', '|---|---|---:|---|'] : [`| done when | target | base (${labels.base}) | new (${labels.new}) |  |`, '|---|---|---:|---:|---|'];
  const mark = (v: Verdict) => (v === 'pass' ? 'pass' : v === 'fail' ? '**fail**' : 'not measured');
  const lines = rows.map((r) => {
    const unit = unitOf.get(r.id) ?? 'ms';
    const cells = labels.base === null ? [r.what, r.target, fmt(r.new, unit), mark(r.verdict)] : [r.what, r.target, r.base === null ? '–' : fmt(r.base, unit), fmt(r.new, unit), mark(r.verdict)];
    return `| ${cells.join(' | ')} |`;
  });
  return [...head, ...lines].join('\n');
}

/** What the table rests on, per build: walls, floors and pages, for a reader to check the ratios. */
export function detailsTable(builds: ReadonlyArray<{ label: string; figures: BuildFigures }>, shared: SharedFigures): string {
  const s1 = (ms: number) => (Number.isFinite(ms) ? (ms / 1000).toFixed(1) : '–');
  const n = (x: number) => (Number.isFinite(x) ? String(Math.round(x)) : '–');
  return [
    '| build | pages (loopback) | loopback wall s | same-browser floor s | latency wall s | politeness floor s | CLI pages | CLI wall s |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...builds.map(({ label, figures: f }) => `| ${label} | ${n(f.loopbackPages)} | ${s1(f.loopbackWallMs)} | ${s1(f.sameBrowserFloorMs)} | ${s1(f.latencyWallMs)} | ${s1(f.politenessFloorMs)} | ${n(f.cliPages)} | ${s1(f.cliWallMs)} |`),
    `| ${PEER_NAME} | | | | | | ${n(shared.peerPages)} | ${s1(shared.peerWallMs)} |`,
  ].join('\n');
}
