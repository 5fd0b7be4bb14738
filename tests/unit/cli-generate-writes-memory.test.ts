import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { liveHeap } from './live-heap';
import type { Io } from '@/cli/common';
import { runGenerate } from '@/cli/generate';
import { countTokens } from '@/lib/tokens';

// What `scout generate` holds while it writes the files, measured by the collector (live-heap.ts)
// when the writing starts (not a timing). Every file's llms-full.txt is in the store's spill by then.
const seen = vi.hoisted(() => ({ atWrite: [] as number[], measure: (): number => 0 }));
vi.mock('@/lib/headless/write-out', async (original) => {
  const actual = await original<typeof import('@/lib/headless/write-out')>();
  return {
    ...actual,
    writeFilesInside: (...args: Parameters<typeof actual.writeFilesInside>) => {
      seen.atWrite.push(seen.measure());
      return actual.writeFilesInside(...args);
    },
  };
});

const PAGES = 200;
// About 50,000 characters a page, each its own words (✓: text V8 keeps two bytes a character).
const paragraph = (i: number, n: number) => `<p>Step ${n} of page ${i} ✓ says ${Array.from({ length: 40 }, (_, w) => `w${i}x${n}y${w}`).join(' ')}.</p>`;
const page = (i: number, links: string) =>
  `<!doctype html><html><head><title>Page ${i}</title></head><body><main><h1>Page ${i}</h1>${links}${Array.from({ length: 100 }, (_, n) => `${n % 10 === 0 ? `<h2>Part ${n}</h2>` : ''}${paragraph(i, n)}`).join('')}</main></body></html>`;

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('scout generate, writing the files', () => {
  it('holds no copy of the site’s text once every llms-full.txt waits in the spill', async () => {
    const site = await mkdtemp(join(tmpdir(), 'scout-writes-site-'));
    const out = await mkdtemp(join(tmpdir(), 'scout-writes-out-'));
    dirs.push(site, out);
    await mkdir(join(site, 'guide'));
    const list = `<ul>${Array.from({ length: PAGES - 1 }, (_, i) => `<li><a href="guide/p${i + 1}.html">Page ${i + 1}</a></li>`).join('')}</ul>`;
    await writeFile(join(site, 'index.html'), page(0, list));
    for (let i = 1; i < PAGES; i++) await writeFile(join(site, 'guide', `p${i}.html`), page(i, ''));

    // The tokenizer's tables (loaded at the first count) are in the baseline, not in what is measured.
    countTokens('warm up');
    const before = liveHeap();
    seen.atWrite = [];
    seen.measure = liveHeap;
    const lines: string[] = [];
    const io: Io = { out: (line) => lines.push(line), progress: () => undefined };
    const code = await runGenerate({ input: site, baseUrl: 'https://docs.example.test/', out, cleanUrls: false, settings: { maxPages: 1000 }, output: {}, json: true }, io);
    expect(code).toBe(0);
    const full = await readFile(join(out, 'llms-full.txt'), 'utf8');
    expect(full.length).toBeGreaterThan(8e6);
    expect((JSON.parse(lines.join('\n')) as { crawl: { stored: number } }).crawl.stored).toBe(PAGES);

    // Generation returned the site's llms-full.txt as the pieces it was appended from (every
    // page's body): held through the writing, that was the site's text again, two bytes a
    // character (25.8 MB held before, 8.5 after, here: the rest is the command's own state).
    const held = (seen.atWrite[0] ?? Number.POSITIVE_INFINITY) - before;
    expect(held).toBeLessThan(full.length * 1.5);
  }, 300_000);
});
