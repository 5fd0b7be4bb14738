/**
 * The browser half of bench/scale.ts, bundled by it into a plain page: the crawl's real
 * PageWriter and Frontier on Chromium's IndexedDB, nothing mocked. `blockMin: Infinity` is the
 * frontier before link blocks (every found URL a row), for the before/after in one run.
 */
import { Frontier } from '../lib/crawl/frontier';
import { toEntries } from '../lib/crawl/links';
import { PageWriter } from '../lib/crawl/page-writer';
import { createScope } from '../lib/url/scope';
import { createDb } from '../lib/store/db';

export interface ScaleFigures {
  /** The batch holding the wide page: its Markdown stored, its links classified and queued, committed. */
  writeMs: number;
  /** Claiming the next `claims` URLs, 6 at a time (what the runner asks for), each settled as done. */
  claimMs: number;
  /** A new runner's init + recover on the job (a worker restarted mid-crawl). */
  resumeMs: number;
  /** Of writeMs: classifying the links alone (toEntries: normalize, key, scope, robots), timed apart on the same URLs. */
  classifyMs: number;
  rows: number;
  pending: number;
}

async function run(links: number, claims: number, blockMin: number, tag: string): Promise<ScaleFigures> {
  const db = createDb(`scale-${tag}`);
  const origin = 'https://docs.example.test';
  const frontier = new Frontier(db, 'job', blockMin);
  await frontier.init();
  const ctx = { scope: createScope({ startUrl: `${origin}/`, mode: 'site' }), robots: () => null };
  const start = { url: `${origin}/docs/p1.html`, key: `${origin}/docs/p1.html`, depth: 1, source: 'link' as const };
  await db.transaction('rw', frontier.tables, async () => frontier.remember(await frontier.addNew([start])));
  const [entry] = await frontier.claim(1);
  if (!entry) throw new Error('nothing claimed');
  const urls = Array.from({ length: links }, (_, k) => `${origin}/docs/w${k}.html`);
  const markdown = urls.map((u, k) => `- [Leaf ${k}](${u})`).join('\n');
  let t = performance.now();
  toEntries(urls.map((url) => ({ url, depth: 2, source: 'link' as const, parentUrl: entry.url })), ctx);
  const classifyMs = performance.now() - t;
  const writer = new PageWriter(db, 'job', frontier, ctx, 5, () => undefined, (e) => console.error(e));
  await writer.init();
  t = performance.now();
  writer.add(entry, { state: 'done', page: { url: entry.url, finalUrl: entry.url, title: 'Wide', markdown, format: 'html', contentHash: 'h', bytes: markdown.length }, links: urls, nav: [], retries: 0 });
  await writer.drain();
  const writeMs = performance.now() - t;

  t = performance.now();
  for (let done = 0; done < claims; ) {
    const claimed = await frontier.claim(6);
    if (!claimed.length) break;
    await db.frontier.bulkPut(claimed.map((r) => ({ ...r, state: 'done' as const })));
    frontier.settled(claimed.map(() => 'done'));
    done += claimed.length;
  }
  const claimMs = performance.now() - t;

  t = performance.now();
  const again = new Frontier(db, 'job', blockMin);
  await again.init();
  await again.recover();
  const resumeMs = performance.now() - t;
  const figures = { writeMs, classifyMs, claimMs, resumeMs, rows: await db.frontier.count(), pending: again.counts().pending };
  await db.delete();
  return figures;
}

(globalThis as { scaleRun?: typeof run }).scaleRun = run;
