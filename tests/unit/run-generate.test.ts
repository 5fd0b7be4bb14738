import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '@/lib/crawl/settings';
import { createDb, type PageRecord, type ScoutDb } from '@/lib/store/db';
import { parseLlmsTxt } from '@/lib/discovery/parse-llms-txt';
import { generateForSite, KEEP_VERSIONS, saveCuration } from '@/lib/generate/run-generate';
import { countTokens } from '@/lib/tokens';

let db: ScoutDb;
afterEach(() => db.delete());

const origin = 'https://docs.example.test';
function page(path: string, title: string, over: Partial<PageRecord> = {}): PageRecord {
  return {
    jobId: 'crawl', key: `${origin}${path}`, url: `${origin}${path}`, finalUrl: `${origin}${path}`, state: 'stored', depth: 1, title,
    description: `What ${title} covers, in one sentence.`, markdown: `# ${title}\n\nAll about ${title}.`, format: 'html', contentHash: path, bytes: 100, fetchedAt: 1, ...over,
  };
}

describe('generating a site’s outputs', () => {
  it('stores llms.txt and llms-full.txt as versions, caches token counts, and keeps the last few', async () => {
    db = createDb(`t-${Math.random()}`);
    await db.sites.add({ origin, host: 'docs.example.test', site: 'example.test', firstOpenedAt: 1, lastOpenedAt: 1, openCount: 1 });
    await db.jobs.add({ id: 'crawl', origin, kind: 'crawl', state: 'done', createdAt: 1, startUrl: `${origin}/`, settings: DEFAULT_SETTINGS, counters: {} });
    await db.pages.bulkAdd([page('/', 'Home', { depth: 0 }), page('/guide/a.html', 'Alpha'), page('/guide/b.html', 'Beta'), page('/api/x.html', 'X API'), page('/dup.html', 'Dup', { state: 'duplicate' })]);

    const first = await generateForSite(db, origin, new Date('2026-11-21T00:00:00Z'));
    expect(first?.version).toBe(1);
    const llms = await db.artifacts.where('[origin+kind+version]').equals([origin, 'llms', 1]).first();
    const parsed = parseLlmsTxt(llms?.text ?? '', `${origin}/llms.txt`);
    expect(parsed.warnings).toEqual([]);
    expect(parsed.links.map((l) => l.name).sort()).toEqual(['Alpha', 'Beta', 'Home', 'X API']);
    expect(llms?.model?.sections.length).toBeGreaterThan(0);
    expect((await db.pages.get(['crawl', `${origin}/guide/a.html`]))?.fullTokens).toEqual({ title: 'Alpha', count: expect.any(Number) as number, chars: expect.any(Number) as number, hash: expect.any(String) as string });

    // Curation is saved on the site and applied on the next version.
    await saveCuration(db, origin, { excluded: [`${origin}/guide/b.html`] });
    const second = await generateForSite(db, origin);
    expect(second?.version).toBe(2);
    expect(second?.output.llmsTxt).not.toContain('[Beta]');
    expect(second?.output.llmsFullTxt).not.toContain('All about Beta');

    for (let i = 0; i < KEEP_VERSIONS + 2; i++) await generateForSite(db, origin);
    const versions = (await db.artifacts.where('[origin+kind+version]').between([origin, 'llms', 0], [origin, 'llms', Infinity]).toArray()).map((a) => a.version);
    expect(versions).toEqual([5, 6, 7, 8, 9]);
  });

  it('stores the files to publish with each version: nested over the budget, flat when the user says so', async () => {
    db = createDb(`t-${Math.random()}`);
    await db.sites.add({ origin, host: 'docs.example.test', site: 'example.test', firstOpenedAt: 1, lastOpenedAt: 1, openCount: 1 });
    await db.jobs.add({ id: 'crawl', origin, kind: 'crawl', state: 'done', createdAt: 1, startUrl: `${origin}/`, settings: DEFAULT_SETTINGS, counters: {} });
    const many = Array.from({ length: 40 }, (_, i) => page(`/guide/p${i}.html`, `Guide page ${i}`, { markdown: `# Guide page ${i}\n\nStep ${i} of the guide, explained in detail.\n\nFor step ${i}, see [API ${i}](${origin}/api/x${i}.html#f) and [API ${i}](${origin}/api/x${i}.html#f).` }));
    const api = Array.from({ length: 40 }, (_, i) => page(`/api/x${i}.html`, `API ${i}`));
    await db.pages.bulkAdd([page('/', 'Home', { depth: 0 }), ...many, ...api]);

    await saveCuration(db, origin, { output: { budget: 3_000 } });
    const nested = await generateForSite(db, origin);
    const files = await db.artifacts.where('[origin+kind+version]').equals([origin, 'files', nested?.version ?? 0]).first();
    expect(files?.files?.files.map((f) => f.path)).toEqual(expect.arrayContaining(['/llms.txt', '/guide/llms.txt', '/api/llms.txt']));
    expect(files?.text).toBe(files?.files?.files[0]?.text);
    expect(files?.files?.files.every((f) => f.chars <= 3_000)).toBe(true);
    // Lean counts are kept on the pages for the next version.
    expect((await db.pages.get(['crawl', `${origin}/guide/p1.html`]))?.bodyCounts?.length).toBeGreaterThan(0);

    await saveCuration(db, origin, { output: { budget: 3_000, layout: 'flat', leanLinks: false } });
    const flat = await generateForSite(db, origin);
    expect(flat?.files.files.map((f) => f.path)).toEqual(['/llms.txt']);
    expect(flat?.files.files[0]?.text).toBe(flat?.output.llmsTxt);
    expect(flat?.files.files[0]?.full.tokens).toBe(flat?.output.tokens.llmsFullTxt);
  });

  it('counts a page again when its text changed but kept its title and length', async () => {
    db = createDb(`t-${Math.random()}`);
    await db.sites.add({ origin, host: 'docs.example.test', site: 'example.test', firstOpenedAt: 1, lastOpenedAt: 1, openCount: 1 });
    await db.jobs.add({ id: 'crawl', origin, kind: 'crawl', state: 'done', createdAt: 1, startUrl: `${origin}/`, settings: DEFAULT_SETTINGS, counters: {} });
    const words = '# Alpha\n\nAll about Alpha, in plain words that tokenize as whole words.';
    await db.pages.bulkAdd([page('/', 'Home', { depth: 0 }), page('/guide/a.html', 'Alpha', { markdown: words }), page('/guide/b.html', 'Beta')]);
    const first = await generateForSite(db, origin);
    expect(first?.output.tokens.llmsFullTxt).toBe(countTokens(first?.output.llmsFullTxt ?? ''));

    // The same length and title, other text (far more tokens): the count kept for the old text is no count of it.
    const digits = `# Alpha\n\n${Array.from({ length: words.length - 9 }, (_, i) => '7%;@'[i % 4]).join('')}`;
    expect(digits.length).toBe(words.length);
    await db.pages.update(['crawl', `${origin}/guide/a.html`], { markdown: digits });
    const second = await generateForSite(db, origin);
    expect(second?.output.llmsFullTxt).toContain(digits.slice(10));
    expect(second?.output.tokens.llmsFullTxt).toBe(countTokens(second?.output.llmsFullTxt ?? ''));
  });

  it('says there is nothing to generate before a crawl stored pages', async () => {
    db = createDb(`t-${Math.random()}`);
    expect(await generateForSite(db, origin)).toBeNull();
  });
});
