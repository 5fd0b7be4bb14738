import { afterEach, describe, expect, it } from 'vitest';
import type { DBCoreGetManyRequest, DBCoreQueryRequest } from 'dexie';
import { DEFAULT_SETTINGS } from '@/lib/crawl/settings';
import { generateForSite } from '@/lib/generate/run-generate';
import { createDb, type PageRecord, type ScoutDb } from '@/lib/store/db';
import { MemoryStore } from '@/lib/store/store';
import { wrapTable } from '@/lib/store/table-middleware';

const origin = 'https://docs.example.test';
const PAGES = 150;
const FOOTER = 'Published by the Example project under its licence. Report a bug. Show source.';

function page(i: number): PageRecord {
  const path = i === 0 ? '/' : `/guide/p${i}.html`;
  const markdown = `# Page ${i}\n\nWhat page ${i} explains: step ${i} of ${PAGES}.\n\n${`Detail ${i} of the step. `.repeat(20)}\n\n${FOOTER}`;
  return { jobId: 'crawl', key: `${origin}${path}`, url: `${origin}${path}`, finalUrl: `${origin}${path}`, state: i % 50 === 7 ? 'duplicate' : 'stored', depth: i === 0 ? 0 : 1, title: `Page ${i}`, markdown, format: 'html', contentHash: `h${i}`, bytes: markdown.length, fetchedAt: 1 };
}

const site = { origin, host: 'docs.example.test', site: 'example.test', firstOpenedAt: 1, lastOpenedAt: 1, openCount: 1 };
const job = { id: 'crawl', origin, kind: 'crawl' as const, state: 'done' as const, createdAt: 1, startUrl: `${origin}/`, settings: DEFAULT_SETTINGS, counters: {} };

let db: ScoutDb | undefined;
let memory: MemoryStore | undefined;
afterEach(async () => {
  await db?.delete();
  memory?.close();
});

describe('generation’s reads of the pages in IndexedDB', () => {
  it('reads each page record once for its two passes and once to keep its counts, and writes what the memory store does', async () => {
    db = createDb(`t-${Math.random()}`);
    await db.sites.add(site);
    await db.jobs.add(job);
    const rows = Array.from({ length: PAGES }, (_, i) => page(i));
    await db.pages.bulkAdd(rows);
    // Page records the pages table hands out, by query (a batch of a pass) and by key (bulkGet).
    let recordsRead = 0;
    db.close();
    wrapTable(db, 'count-reads', 'pages', (table) => ({
      ...table,
      query: async (req: DBCoreQueryRequest) => {
        const result = await table.query(req);
        if (req.values) recordsRead += result.result.length;
        return result;
      },
      getMany: async (req: DBCoreGetManyRequest) => {
        const result = await table.getMany(req);
        recordsRead += result.filter(Boolean).length;
        return result;
      },
    }));
    await db.open();

    const now = new Date('2026-11-21T00:00:00Z');
    const result = await generateForSite(db, origin, now);
    // Every page once in the passes, every stored one once more where its counts are kept.
    const stored = rows.filter((r) => r.state === 'stored').length;
    expect(recordsRead).toBeGreaterThan(0);
    expect(recordsRead).toBeLessThanOrEqual(PAGES + stored);
    // The counts were kept on every stored page, and the refresh-safe check left the text alone.
    const after = await db.pages.toArray();
    expect(after.filter((p) => p.state === 'stored').every((p) => p.fullTokens)).toBe(true);
    expect(new Map(after.map((p) => [p.key, p.markdown]))).toEqual(new Map(rows.map((r) => [r.key, r.markdown])));

    // The memory store reads the pages twice; the files are the same bytes.
    memory = new MemoryStore();
    memory.sites.set(origin, site);
    memory.jobs.set('crawl', job);
    for (const row of rows) memory.pages.rowsOf('crawl').set(row.key, { ...row });
    const fromMemory = await generateForSite(memory, origin, now);
    expect(result?.output.llmsFullTxt).not.toContain('Report a bug');
    expect(result?.output.llmsTxt).toBe(fromMemory?.output.llmsTxt);
    expect(result?.output.llmsFullTxt).toBe(fromMemory?.output.llmsFullTxt);
    expect(result?.files).toEqual(fromMemory?.files);
  });
});
