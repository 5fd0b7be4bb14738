import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { frameSource, median, medians, parseUsage, runFigures, splitProfile, stepOf, USAGE_WRAPPER, type CpuProfile } from '../../bench/cli-figures';

const dir = mkdtempSync(join(tmpdir(), 'bench-cli-figures-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bench/cli.ts figures', () => {
  it('the usage wrapper reports a child that exits through process.exit, with its peak memory', () => {
    const wrapper = join(dir, 'usage.mjs');
    writeFileSync(wrapper, USAGE_WRAPPER);
    const usageFile = join(dir, 'usage.json');
    // 200 MB touched page by page, then an exit with a code: the record must still be written, and hold the peak.
    const script = 'const b = Buffer.alloc(200 * 1024 * 1024, 1); let s = 0; for (let i = 0; i < b.length; i += 4096) s += b[i]; process.exit(s > 0 ? 3 : 4);';
    const child = spawnSync(process.execPath, ['--import', pathToFileURL(wrapper).href, '-e', script], { env: { ...process.env, SCOUT_BENCH_USAGE: usageFile } });
    expect(child.status).toBe(3);
    const usage = parseUsage(readFileSync(usageFile, 'utf8'));
    expect(usage.maxRSS).toBeGreaterThan(200 * 1024);
    expect(usage.userCPUTime + usage.systemCPUTime).toBeGreaterThan(0);
  });

  it('refuses a usage record with a figure missing or not a number', () => {
    expect(() => parseUsage('{"userCPUTime":1,"systemCPUTime":2}')).toThrow(/maxRSS/);
    expect(() => parseUsage('{"userCPUTime":"1","systemCPUTime":2,"maxRSS":3}')).toThrow(/userCPUTime/);
    expect(parseUsage('{"userCPUTime":1500,"systemCPUTime":500,"maxRSS":2048}')).toEqual({ userCPUTime: 1500, systemCPUTime: 500, maxRSS: 2048 });
  });

  it('CPU is user + system in ms, per stored page; peak RSS in MB', () => {
    const f = runFigures(9000, { userCPUTime: 3_000_000, systemCPUTime: 1_000_000, maxRSS: 512 * 1024 }, 40);
    expect(f).toEqual({ wallMs: 9000, cpuMs: 4000, peakRssMb: 512, pages: 40, cpuPerPageMs: 100 });
    expect(runFigures(1, { userCPUTime: 1, systemCPUTime: 1, maxRSS: 1 }, 0).cpuPerPageMs).toBeNaN();
  });

  it('medians: odd and even counts, each figure on its own', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
    const u = (cpu: number) => ({ userCPUTime: cpu * 1000, systemCPUTime: 0, maxRSS: 1024 });
    const m = medians([runFigures(10, u(500), 5), runFigures(30, u(100), 5), runFigures(20, u(300), 5)]);
    expect(m.wallMs).toBe(20);
    expect(m.cpuMs).toBe(300);
    expect(m.cpuPerPageMs).toBe(60);
  });

  it('names a frame by its project folder, its package or its kind', () => {
    const root = '/work/checkout';
    expect(frameSource('file:///work/checkout/lib/convert/convert-page.ts', 'convertHtml', root)).toBe('lib/convert');
    expect(frameSource('file:///work/checkout/lib/hash.ts', 'sha256', root)).toBe('lib/hash');
    expect(frameSource('file:///work/checkout/cli/generate.ts', 'runGenerate', root)).toBe('cli');
    expect(frameSource('file:///elsewhere/node_modules/@joplin/turndown-plugin-gfm/lib/index.js', 'tables', root)).toBe('pkg:@joplin/turndown-plugin-gfm');
    expect(frameSource('file:///work/checkout/node_modules/fake-indexeddb/build/esm/lib/x.js', 'getValue', root)).toBe('pkg:fake-indexeddb');
    expect(frameSource('node:internal/streams/readable', 'read', root)).toBe('node:internal');
    expect(frameSource('node:internal/deps/undici/undici', 'fetch', root)).toBe('pkg:undici');
    expect(frameSource('', '(garbage collector)', root)).toBe('(garbage collector)');
    expect(frameSource('', 'structuredClone', root)).toBe('(native) structuredClone');
  });

  it('a sample goes to the step of its innermost known frame, else to its leaf', () => {
    const s = (...sources: string[]) => sources.map((source) => ({ source }));
    // linkedom under the converter under the crawl: conversion.
    expect(stepOf(s('cli', 'lib/crawl', 'lib/convert', 'pkg:linkedom'))).toBe('conversion');
    // structuredClone (native, unknown) under fake-indexeddb under the crawl: the store.
    expect(stepOf(s('lib/crawl', 'pkg:fake-indexeddb', '(native) structuredClone'))).toBe('store (Dexie on fake-indexeddb)');
    expect(stepOf(s('node:internal', '(native) read'))).toBe('(native) read');
    expect(stepOf([])).toBe('(none)');
  });

  it('sums a profile by step, leaf source and function, each sample weighted by the time until the next, idle left out', () => {
    const root = '/r';
    const node = (id: number, functionName: string, url: string, children: number[] = []) => ({ id, callFrame: { functionName, url }, children });
    const profile: CpuProfile = {
      nodes: [
        node(1, '(root)', '', [2, 5, 6]),
        node(2, 'crawl', 'file:///r/lib/crawl/runner.ts', [3]),
        node(3, 'convertHtml', 'file:///r/lib/convert/convert-page.ts', [4]),
        node(4, 'parse', 'file:///r/node_modules/linkedom/esm/index.js'),
        node(5, 'put', 'file:///r/node_modules/dexie/dist/dexie.mjs', [7]),
        node(6, '(idle)', ''),
        node(7, 'structuredClone', ''),
      ],
      // Sample i lasts timeDeltas[i + 1] µs: 4 → 2 ms, 3 → 1 ms, 7 → 3 ms, 6 (idle) → 5 ms, 4 → the last, 0.
      samples: [4, 3, 7, 6, 4],
      timeDeltas: [0, 2000, 1000, 3000, 5000],
    };
    const split = splitProfile(profile, root);
    expect(split.totalMs).toBe(6);
    expect(split.steps).toEqual([
      { step: 'conversion', ms: 3 },
      { step: 'store (Dexie on fake-indexeddb)', ms: 3 },
    ]);
    expect(split.sources).toEqual([
      { source: '(native) structuredClone', ms: 3 },
      { source: 'pkg:linkedom', ms: 2 },
      { source: 'lib/convert', ms: 1 },
    ]);
    expect(split.functions[0]).toEqual({ name: 'structuredClone [(native) structuredClone]', ms: 3 });
  });
});
