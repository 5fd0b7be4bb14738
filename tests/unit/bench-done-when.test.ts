import { describe, expect, it } from 'vitest';
import {
  allPass,
  cliFigures,
  doneWhenRows,
  doneWhenTable,
  EMPTY_FIGURES,
  ISSUE_33,
  judge,
  latencyFigures,
  loopbackFigures,
  parseBenchArgs,
  PEER_NAME,
  peerFigures,
  type BuildFigures,
} from '../../bench/done-when';

/** A results file as bench/crawl.ts writes it for two builds measured interleaved. */
function crawlResults(runs: Array<{ build: string; wallMs: number; floorMs: number; network?: { ratio: number; politenessFloorMs: number; wallMs: number } }>, cpu: Record<string, Record<string, number>>) {
  const corpora: Record<string, { runs: unknown[]; cpuMsPerPage: { crawl: Record<string, number> } }> = {};
  for (const r of runs) (corpora[`python [${r.build}]`] ??= { runs: [], cpuMsPerPage: { crawl: cpu[r.build] ?? {} } }).runs.push({ corpus: 'python', pages: 526, ...r });
  return { corpora } as Parameters<typeof loopbackFigures>[0];
}

const figures = (over: Partial<BuildFigures>): BuildFigures => ({ ...EMPTY_FIGURES, ...over });

describe('npm run bench: arguments', () => {
  it('defaults to three runs of every measurement, 80 ms, all parts, building first, no baseline', () => {
    const a = parseBenchArgs([]);
    expect(a).toMatchObject({ runs: { loopback: 3, latency: 3, cli: 3 }, latencyMs: 80, parts: ['loopback', 'latency', 'cli'], build: true, baseline: undefined });
  });

  it('takes a baseline revision, per-part run counts and a subset of parts, in its own order', () => {
    const a = parseBenchArgs(['--baseline', 'b9daa3d', '--runs', '2', '--cli-runs', '5', '--parts', 'cli,loopback', '--no-build', '--out', '/tmp/x']);
    expect(a).toMatchObject({ baseline: 'b9daa3d', runs: { loopback: 2, latency: 2, cli: 5 }, parts: ['loopback', 'cli'], build: false, out: '/tmp/x' });
  });

  it('refuses a revision together with ready builds, an unknown part or flag, and a run count that is not a whole number', () => {
    expect(() => parseBenchArgs(['--baseline', 'HEAD~1', '--baseline-cli', '/tmp/scout.js'])).toThrow(/not both/);
    expect(() => parseBenchArgs(['--parts', 'loopback,panel'])).toThrow(/panel/);
    expect(() => parseBenchArgs(['--run', '3'])).toThrow();
    expect(() => parseBenchArgs(['--runs', '0'])).toThrow(/at least 1/);
    expect(() => parseBenchArgs(['--latency-runs', '1.5'])).toThrow(/latency-runs/);
    expect(() => parseBenchArgs(['--latency', '-80'])).toThrow(/latency/);
  });
});

describe('npm run bench: figures read from the measurements', () => {
  it('reads each build its own loopback runs: the CPU table figure, and each run against its own floor', () => {
    const results = crawlResults(
      [
        { build: 'base', wallMs: 30_000, floorMs: 10_000 },
        { build: 'new', wallMs: 18_000, floorMs: 9_000 },
        { build: 'base', wallMs: 40_000, floorMs: 20_000 },
        { build: 'new', wallMs: 20_000, floorMs: 12_000 },
        { build: 'base', wallMs: 36_000, floorMs: 9_000 },
        { build: 'new', wallMs: 19_000, floorMs: 9_500 },
      ],
      // Thread keys split the extension's figure: all-Chromium leaves them out.
      { base: { extension: 40, network: 6, browser: 10, 'thread: service worker': 16 }, new: { extension: 20, network: 5, browser: 8, 'thread: conversion workers': 12 } },
    );
    const base = loopbackFigures(results, 'python', 'base');
    const next = loopbackFigures(results, 'python', 'new');
    expect(base.chromiumCpuPerPageMs).toBe(56);
    expect(next.chromiumCpuPerPageMs).toBe(33);
    // Ratios 3, 2, 4 → 3 (the median run, not median wall ÷ median floor = 3.6).
    expect(base.loopbackRatio).toBe(3);
    expect(base.loopbackWallMs).toBe(36_000);
    expect(next.loopbackRatio).toBe(2);
    expect(loopbackFigures(results, 'python', 'other').loopbackRatio).toBeNaN();
  });

  it('reads the shaped runs against the politeness floor, and the CLI and its peer by name', () => {
    const results = crawlResults(
      [
        { build: 'new', wallMs: 14_000, floorMs: 9_000, network: { ratio: 1.4, politenessFloorMs: 10_000, wallMs: 14_000 } },
        { build: 'new', wallMs: 12_000, floorMs: 9_000, network: { ratio: 1.2, politenessFloorMs: 10_000, wallMs: 12_000 } },
      ],
      {},
    );
    expect(latencyFigures(results, 'python', 'new')).toMatchObject({ latencyWallMs: 13_000, politenessFloorMs: 10_000 });
    expect(latencyFigures(results, 'python', 'new').latencyRatio).toBeCloseTo(1.3, 9);
    const cli = { results: { 'Scout CLI (new)': { median: { wallMs: 40_000, cpuPerPageMs: 48, peakRssMb: 280, pages: 526 } }, [PEER_NAME]: { median: { wallMs: 50_000, cpuPerPageMs: 70, peakRssMb: 900, pages: 527 } } } };
    expect(cliFigures(cli, 'new')).toEqual({ cliCpuPerPageMs: 48, cliPeakRssMb: 280, cliWallMs: 40_000, cliPages: 526 });
    expect(cliFigures(cli, 'base').cliWallMs).toBeNaN();
    expect(peerFigures(cli)).toEqual({ peerWallMs: 50_000, peerPages: 527 });
    expect(peerFigures(undefined).peerWallMs).toBeNaN();
  });

  it('refuses to choose between two converter plans of one build', () => {
    const results = { corpora: { 'python (1w)': { runs: [{ corpus: 'python', build: 'new', pages: 1, wallMs: 1, floorMs: 1 }] }, 'python (2w)': { runs: [{ corpus: 'python', build: 'new', pages: 1, wallMs: 1, floorMs: 1 }] } } };
    expect(() => loopbackFigures(results, 'python', 'new')).toThrow(/one converter plan/);
  });
});

describe('npm run bench: the done-when table', () => {
  const passing = figures({ chromiumCpuPerPageMs: 35, loopbackRatio: 1.9, latencyRatio: 1.25, cliCpuPerPageMs: 45, cliPeakRssMb: 250, cliWallMs: 30_000 });
  const before = figures({ chromiumCpuPerPageMs: 56, loopbackRatio: 2.9, latencyRatio: 1.6, cliCpuPerPageMs: 101, cliPeakRssMb: 900, cliWallMs: 86_000 });

  it('passes a figure at its limit, and the wall only strictly below the peer of the same run', () => {
    expect(judge(35, 35)).toBe('pass');
    expect(judge(35.01, 35)).toBe('fail');
    expect(judge(50_000, 50_000, true)).toBe('fail');
    expect(judge(Number.NaN, 35)).toBe('not measured');
    const rows = doneWhenRows(ISSUE_33, passing, before, { peerWallMs: 54_000, peerPages: 527 });
    expect(rows.map((r) => [r.id, r.verdict, r.baseVerdict])).toEqual([
      ['chromium-cpu', 'pass', 'fail'],
      ['loopback-ratio', 'pass', 'fail'],
      ['latency-ratio', 'pass', 'fail'],
      ['cli-cpu', 'pass', 'fail'],
      ['cli-rss', 'pass', 'fail'],
      ['cli-wall', 'pass', 'fail'],
    ]);
    expect(allPass(rows)).toBe(true);
    // The same CLI wall fails when the peer was faster in this run.
    const slowerThanPeer = doneWhenRows(ISSUE_33, passing, null, { peerWallMs: 29_000, peerPages: 527 });
    expect(slowerThanPeer.find((r) => r.id === 'cli-wall')?.verdict).toBe('fail');
    expect(allPass(slowerThanPeer)).toBe(false);
  });

  it('does not count a row not measured as a pass: without the peer, the wall row is open', () => {
    const rows = doneWhenRows(ISSUE_33, passing, null, { peerWallMs: Number.NaN, peerPages: Number.NaN });
    expect(rows.find((r) => r.id === 'cli-wall')?.verdict).toBe('not measured');
    expect(allPass(rows)).toBe(false);
    expect(allPass([])).toBe(false);
  });

  it('prints one line per criterion with its target, base and new figures and the verdict', () => {
    const rows = doneWhenRows(ISSUE_33, figures({ ...passing, cliPeakRssMb: 310 }), before, { peerWallMs: 54_000, peerPages: 527 });
    const lines = doneWhenTable(ISSUE_33, rows, { base: 'base', new: 'new' }).split('\n');
    expect(lines).toHaveLength(2 + ISSUE_33.length);
    expect(lines[0]).toContain('base (base)');
    expect(lines.find((l) => l.includes('all-Chromium'))).toMatch(/\| ≤ 35 ms \| 56\.0 ms \| 35\.0 ms \| pass \|$/);
    expect(lines.find((l) => l.includes('peak memory'))).toMatch(/\| ≤ 300 MB \| 900 MB \| 310 MB \| \*\*fail\*\* \|$/);
    expect(lines.find((l) => l.includes('crawlee'))).toMatch(/< 54\.0 s .*\| 86\.0 s \| 30\.0 s \| pass \|$/);
    // Without a baseline: no base column.
    const alone = doneWhenTable(ISSUE_33, doneWhenRows(ISSUE_33, passing, null, { peerWallMs: 54_000, peerPages: 527 }), { base: null, new: 'new' }).split('\n');
    expect(alone[0]?.split('|').length).toBe(lines[0] ? lines[0].split('|').length - 1 : 0);
    expect(alone.find((l) => l.includes('loopback wall'))).toMatch(/\| ≤ 2× \| 1\.90× \| pass \|$/);
  });
});
