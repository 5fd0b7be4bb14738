import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PageRecord } from '@/lib/store/db';
import { BodySpill } from '@/lib/store/memory/body-spill';
import { keepPageCounts, pagesAfter } from '@/lib/store/page-outputs';
import { MemoryStore } from '@/lib/store/store';

const parents: string[] = [];
let store: MemoryStore | undefined;
afterEach(() => {
  store?.close();
  store = undefined;
  vi.restoreAllMocks();
  for (const dir of parents.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function spill(): BodySpill {
  const parent = mkdtempSync(join(tmpdir(), 'scout-spill-counts-'));
  parents.push(parent);
  return new BodySpill(parent);
}

const PAGES = 50;
function page(i: number): PageRecord {
  const markdown = `# Page ${i}\n\n${`Text of page ${i}, ünïcode ✓. `.repeat(400)}`;
  return { jobId: 'crawl', key: `k${String(i).padStart(3, '0')}`, url: `https://e.test/${i}`, finalUrl: `https://e.test/${i}`, state: 'stored', depth: 1, title: `Page ${i}`, markdown, format: 'html', contentHash: `h${i}`, bytes: markdown.length, fetchedAt: 1 };
}

describe('the memory store with a spill, keeping token counts', () => {
  it('writes the counts beside each page without reading its Markdown back or writing it again', async () => {
    const bodies = spill();
    store = new MemoryStore({ spill: bodies });
    for (let i = 0; i < PAGES; i++) store.pages.rowsOf('crawl').set(page(i).key, page(i));
    const file = join(bodies.folder as string, 'bodies');
    const size = statSync(file).size;
    const reads = vi.spyOn(bodies, 'read');

    const updates = Array.from({ length: PAGES }, (_, i) => ({ key: page(i).key, contentHash: `h${i}`, changes: { bodyCounts: [{ f: `fp${i}`, n: i }] } as Pick<PageRecord, 'bodyCounts'> }));
    await keepPageCounts(store, 'crawl', updates);

    // Before, each page was copied whole (its Markdown read from disk) and set again (written again):
    // generation on a large site read and rewrote every page's text to change two numbers.
    expect(reads).not.toHaveBeenCalled();
    expect(statSync(file).size).toBe(size);

    // The pages read back as they were, the counts with them, their keys in the same order.
    reads.mockRestore();
    const read = await pagesAfter(store, 'crawl', undefined, PAGES);
    expect(read.map((p) => p.markdown)).toEqual(Array.from({ length: PAGES }, (_, i) => page(i).markdown));
    expect(read.map((p) => p.bodyCounts)).toEqual(updates.map((u) => u.changes.bodyCounts));
    expect(Object.keys(read[0] as PageRecord)).toEqual([...Object.keys(page(0)), 'bodyCounts']);
    // A row set with new Markdown afterwards is written as any other.
    const changed = { ...(read[1] as PageRecord), markdown: `# Changed\n\n${'new text '.repeat(300)}` };
    store.pages.rowsOf('crawl').set(changed.key, changed);
    expect(statSync(file).size).toBeGreaterThan(size);
    expect((await pagesAfter(store, 'crawl', undefined, PAGES))[1]?.markdown).toBe(changed.markdown);
    expect((await pagesAfter(store, 'crawl', undefined, PAGES))[0]?.markdown).toBe(page(0).markdown);
  });

  it('reads bodies back into one buffer of its own, not a new buffer of bytes per read', () => {
    const bodies = spill();
    const rows = Array.from({ length: PAGES }, (_, i) => bodies.hold(page(i), 'markdown'));
    const allocations = vi.spyOn(Buffer, 'allocUnsafe');
    // Each read is a string; its bytes were a buffer left for the collector (tens of MB on a large site).
    for (let pass = 0; pass < 3; pass++) for (const [i, row] of rows.entries()) expect(row.markdown).toBe(page(i).markdown);
    expect(allocations.mock.calls.length).toBeLessThanOrEqual(1);
  });
});
