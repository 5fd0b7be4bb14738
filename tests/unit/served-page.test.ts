import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromeStripper, learnChrome, NO_CHROME } from '@/lib/generate/boilerplate';
import { crawlSite } from '@/lib/headless/crawl-site';
import { indexPageOf, servedIndexPage } from '@/lib/agents/page-search';
import { createDescribeJob, runDescribeJob } from '@/lib/describe/run-describe';
import { chromeFor, outputChrome, previewOf, servedMarkdown } from '@/lib/output/served-page';
import { versionsNewestFirst } from '@/lib/store/artifacts';
import { createDb, type PageRecord, type ScoutDb } from '@/lib/store/db';
import { pagesOf } from '@/lib/store/queries';
import { matrixSites } from '../fixtures/matrix';
import { loopbackFetch, startFixtureServer, type FixtureServer } from '../fixtures/server';

/**
 * What Scout serves of a stored page (preview, search, describer, exports) is the record without
 * the site chrome the generated version learned: the model is kept on the version's `files`
 * artifact and read back, never learned again. Checked on every stored page of two matrix sites
 * crawled as the product crawls them.
 */

/** Markdown blocks: split at blank lines outside fenced code (a fence with blank lines is one block). */
function blocks(markdown: string): string[] {
  const out: string[] = [];
  let lines: string[] = [];
  let fence = '';
  const flush = () => {
    if (lines.length) out.push(lines.join('\n'));
    lines = [];
  };
  for (const line of markdown.split('\n')) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      lines.push(line);
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = '';
      continue;
    }
    if (marker) {
      flush();
      fence = marker;
      lines.push(line);
    } else if (line.trim() === '') flush();
    else lines.push(line);
  }
  flush();
  return out;
}

const isHeading = (block: string): boolean => /^#{1,6}\s/.test(block) && !block.includes('\n');

/**
 * Why `served` is not `stored` with only its frame cut, or null when it is: the served blocks are
 * the stored ones in order, and every block cut lies in the page's head (before its first kept
 * block that is not a heading: the page's own headings stay above a cut breadcrumb or badge) or
 * below its last kept block. Nothing between two kept content blocks goes.
 */
function frameOnly(stored: string, served: string): string | null {
  const all = blocks(stored);
  const kept: number[] = [];
  let at = 0;
  for (const block of blocks(served)) {
    while (at < all.length && all[at] !== block) at++;
    if (at === all.length) return `served block not in the stored page, in order: ${block.slice(0, 80)}`;
    kept.push(at++);
  }
  const firstContent = kept.find((i) => !isHeading(all[i] ?? '')) ?? all.length;
  const last = kept.at(-1) ?? -1;
  const keptSet = new Set(kept);
  const inside = all.findIndex((_block, i) => !keptSet.has(i) && i > firstContent && i < last);
  return inside >= 0 ? `block ${inside} cut from inside the page: ${all[inside]?.slice(0, 80)}` : null;
}

const SITES = ['rustdoc-proc-macro', 'typedoc-commander'];

describe.each(SITES.map((id) => [id]))('every stored page of %s as served', (id) => {
  const site = matrixSites([id])[0];
  let server: FixtureServer;
  let db: ScoutDb;
  let jobId = '';
  let origin = '';
  let pages: PageRecord[] = [];

  beforeAll(async () => {
    if (!site) throw new Error(`no matrix site ${id}`);
    server = await startFixtureServer({ [site.host]: site.site() });
    db = createDb(`served-${id}-${Math.random()}`);
    const { job, generated } = await crawlSite({ db, startUrl: server.url(site.host, site.startPath), fetch: loopbackFetch(), settings: { maxPages: 400, maxDepth: 50 }, discoveryJobId: `discovery-${id}` });
    if (!generated) throw new Error(`${id}: nothing generated`);
    jobId = job.id;
    origin = job.origin;
    pages = (await pagesOf(db, job.id).toArray()).filter((page) => !page.empty);
  }, 120_000);

  afterAll(async () => {
    await db?.delete();
    await server?.close();
  });

  it('tells a cut inside the page from a frame cut', () => {
    expect(frameOnly('# T\n\nbadge\n\nText.\n\nMore.\n\nfooter', '# T\n\nText.\n\nMore.')).toBeNull();
    expect(frameOnly('# T\n\nText.\n\nnote\n\nMore.', '# T\n\nText.\n\nMore.')).toMatch(/inside/);
    expect(frameOnly('# T\n\nText.', '# T\n\nText!')).toMatch(/not in the stored/);
  });

  it('keeps the model generation learned on the version, and reads it back by crawl and by site', async () => {
    const [files] = await versionsNewestFirst(db, origin, 'files');
    const kept = files?.files?.chrome;
    expect(kept).toBeDefined();
    // The same model generation learns from these pages, through the store and back unchanged.
    expect(kept).toEqual(learnChrome(pages.filter((page) => !page.notDocs).map((page) => page.markdown)));
    expect(await chromeFor(db, { jobId })).toEqual(kept);
    expect(await chromeFor(db, { origin })).toEqual(kept);
    expect(await outputChrome(db, jobId, pages)).toEqual(kept);
  });

  it('serves each page as its stored blocks with only a head and tail frame cut', async () => {
    const model = await chromeFor(db, { jobId });
    expect(pages.length).toBeGreaterThan(10);
    const bad = pages.flatMap((page) => {
      const why = frameOnly(page.markdown, servedMarkdown(model, page));
      return why ? [`${page.url}: ${why}`] : [];
    });
    expect(bad).toEqual([]);
  });

  it('previews each page as served, and as stored on request', async () => {
    const model = await chromeFor(db, { jobId });
    for (const page of pages) {
      const served = previewOf(model, page, false);
      expect(served.text).toBe(servedMarkdown(model, page));
      expect(previewOf(model, page, true).text).toBe(page.markdown);
      expect(served.cut).toBe(page.markdown.length - served.text.length);
    }
  });

  it('gives the describer each page as served', async () => {
    const model = await chromeFor(db, { jobId });
    const seen = new Map<string, string>();
    const job = await createDescribeJob(db, origin);
    if ('error' in job) throw new Error(job.error);
    const provider = {
      id: 'served-test',
      describe: async (page: { key: string; markdown: string }) => {
        seen.set(page.key, page.markdown);
        return { ok: true as const, text: 'A page.' };
      },
    };
    expect(await runDescribeJob(db, job.id, provider, { concurrency: 2, maxPages: 1000 })).toBe('done');
    const stored = await pagesOf(db, jobId).toArray();
    expect(seen.size).toBe(stored.length);
    for (const page of stored) expect(seen.get(page.key)).toBe(servedMarkdown(model, page));
  });

  it('indexes the served text for search', async () => {
    const model = await chromeFor(db, { jobId });
    const served = servedIndexPage(model);
    for (const page of pages) expect(served(page).markdown).toBe(servedMarkdown(model, page));
  });
});

describe('the chrome rustdoc repeats', () => {
  it('is cut from the stored pages that carry it', async () => {
    const site = matrixSites(['rustdoc-proc-macro'])[0];
    if (!site) throw new Error('no rustdoc matrix site');
    const server = await startFixtureServer({ [site.host]: site.site() });
    const db = createDb(`served-rustdoc-cut-${Math.random()}`);
    try {
      const { job } = await crawlSite({ db, startUrl: server.url(site.host, site.startPath), fetch: loopbackFetch(), settings: { maxPages: 400, maxDepth: 50 }, discoveryJobId: 'discovery-rustdoc-cut' });
      const model = await chromeFor(db, { jobId: job.id });
      const pages = await pagesOf(db, job.id).toArray();
      // Blanket implementations every type page inherits ("impl<T> From<T> for T") end most of them.
      const trimmed = pages.filter((page) => servedMarkdown(model, page) !== page.markdown);
      expect(trimmed.length).toBeGreaterThan(5);
      for (const page of trimmed) expect(servedMarkdown(model, page).length).toBeLessThan(page.markdown.length);
    } finally {
      await db.delete();
      await server.close();
    }
  }, 120_000);
});

describe('without a generated version', () => {
  it('serves the page as stored, and an export learns the chrome as generation does', async () => {
    const db = createDb(`served-none-${Math.random()}`);
    try {
      expect(await chromeFor(db, { jobId: 'no-such-crawl' })).toBeUndefined();
      expect(await chromeFor(db, { origin: 'http://nothing.test' })).toBeUndefined();
      const page = { markdown: '# Title\n\nBody.\n\nFooter © the team, built with a theme.' };
      expect(servedMarkdown(undefined, page)).toBe(page.markdown);
      expect(servedMarkdown(NO_CHROME, page)).toBe(page.markdown);
      expect(previewOf(undefined, page, false)).toEqual({ text: page.markdown, cut: 0 });
      // Six pages sharing a footer; one the user left out, one not documentation: neither is learned from.
      const footer = '© 2026 the Acorn team. Built with a theme.';
      const rows = Array.from({ length: 6 }, (_, i) => ({ key: `k${i}`, state: 'stored', markdown: `# Page ${i}\n\nAll about thing ${i} here.\n\n${footer}` }));
      const model = await outputChrome(db, 'no-such-crawl', rows);
      expect(chromeStripper(model)(rows[0]?.markdown ?? '')).toBe('# Page 0\n\nAll about thing 0 here.');
      const few = await outputChrome(db, 'no-such-crawl', rows, { excluded: ['k0', 'k1'] });
      // Four pages are below the size a site's frame is learned from: nothing is cut.
      expect(few).toEqual(NO_CHROME);
      expect(indexPageOf({ jobId: 'j', key: 'k', url: 'http://a.test/', title: 'A', markdown: rows[0]?.markdown ?? '' } as PageRecord).markdown).toBe(rows[0]?.markdown);
    } finally {
      await db.delete();
    }
  });

  it('ignores a stored model made by another version of the strip', async () => {
    const { isChromeModel } = await import('@/lib/generate/boilerplate');
    expect(isChromeModel({ ...NO_CHROME, v: 0 })).toBe(false);
    expect(isChromeModel({ v: NO_CHROME.v, repeated: [] })).toBe(false);
    expect(isChromeModel(JSON.parse(JSON.stringify(learnChrome(['a b c', 'a b c', 'a b c', 'a b c', 'a b c']))))).toBe(true);
  });
});
