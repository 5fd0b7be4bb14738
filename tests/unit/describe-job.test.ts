import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '@/lib/crawl/settings';
import { createDb, type PageRecord, type ScoutDb } from '@/lib/store/db';
import { endpointProvider } from '@/lib/describe/endpoint';
import { createDescribeJob, pagesToDescribe, runDescribeJob } from '@/lib/describe/run-describe';
import { describeSite } from '@/lib/describe/site-summary';
import { generateForSite } from '@/lib/generate/run-generate';
import { getJob } from '@/lib/store/queries';
import { answer, pageUrlOf, serverError, startChatServer, type ChatServer } from '../fixtures/chat-server';

const ORIGIN = 'https://docs.example.test';
let db: ScoutDb;
let chat: ChatServer;
afterEach(async () => {
  await db?.delete();
  await chat?.close();
});

/** A finished crawl of five pages, stored as the crawler would. */
async function crawledSite(): Promise<void> {
  db = createDb(`t-${Math.random()}`);
  await db.sites.add({ origin: ORIGIN, host: 'docs.example.test', site: 'example.test', firstOpenedAt: 0, lastOpenedAt: 0, openCount: 1 });
  await db.jobs.add({ id: 'c1', origin: ORIGIN, kind: 'crawl', state: 'done', createdAt: 1, startUrl: `${ORIGIN}/`, settings: DEFAULT_SETTINGS, counters: {} });
  const pages: PageRecord[] = ['', 'install', 'config', 'api', 'faq'].map((p, i) => ({
    jobId: 'c1', key: `${ORIGIN}/${p}`, url: `${ORIGIN}/${p}`, finalUrl: `${ORIGIN}/${p}`, state: 'stored', depth: i ? 1 : 0,
    title: p || 'Home', description: `Own description of ${p || 'home'}.`, markdown: `# ${p || 'Home'}\n\nText about ${p || 'the project'} at some length.`, format: 'html', contentHash: `hash-${p}`, bytes: 100, fetchedAt: 0,
  }));
  await db.pages.bulkAdd(pages);
}

describe('describe job', () => {
  it('writes AI descriptions into the next llms.txt, lists fallbacks with reasons, and asks nothing twice', async () => {
    await crawledSite();
    chat = await startChatServer((body) => {
      const url = pageUrlOf(body) ?? '';
      return url.endsWith('/api') ? serverError(500) : answer(`Explains ${url.split('/').pop() || 'the project'} for new users.`, 30);
    });
    const provider = endpointProvider({ url: chat.baseUrl, model: 'test-model', apiKey: 'sk-secret-123456789' }, fetch);
    const job = await createDescribeJob(db, ORIGIN);
    if ('error' in job) throw new Error(job.error);
    expect(await runDescribeJob(db, job.id, provider, { concurrency: 2, maxPages: 100 })).toBe('done');

    const done = await getJob(db, job.id, 'describe');
    expect(done?.counters).toMatchObject({ total: 5, described: 4, cached: 0, fallback: 1 });
    expect(done?.fallbacks).toEqual([{ url: `${ORIGIN}/api`, reason: expect.stringMatching(/HTTP 500.*gave up after 3 retries/) }]);
    expect(chat.maxInFlight).toBeLessThanOrEqual(2);
    // The key went in the Authorization header only, and is nowhere in the database.
    expect(chat.requests.every((r) => r.headers.authorization === 'Bearer sk-secret-123456789' && !r.raw.includes('sk-secret'))).toBe(true);
    const everything = JSON.stringify(await Promise.all(db.tables.map((t) => t.toArray())));
    expect(everything).not.toContain('sk-secret');

    const generated = await generateForSite(db, ORIGIN, new Date(), { descriptionsBy: provider.id });
    const text = generated?.output.llmsTxt ?? '';
    expect(text).toContain('Explains install for new users.');
    expect(text).toContain('Own description of api.'); // the fallback keeps its own
    expect(text).not.toContain('Own description of install.');
    // Deterministic generation is untouched by the cache.
    expect((await generateForSite(db, ORIGIN, new Date()))?.output.llmsTxt).toContain('Own description of install.');

    const before = chat.requests.length;
    const again = await createDescribeJob(db, ORIGIN);
    if ('error' in again) throw new Error(again.error);
    await runDescribeJob(db, again.id, provider, { concurrency: 2, maxPages: 100 });
    expect((await db.jobs.get(again.id))?.counters).toMatchObject({ cached: 4, described: 0 });
    // Only the page that failed is asked again (4 calls: it still fails).
    expect(chat.requests.slice(before).map((r) => pageUrlOf(r.body))).toEqual(Array(4).fill(`${ORIGIN}/api`));
  });

  it('stops when cancelled, says so, and starts no more calls', async () => {
    await crawledSite();
    chat = await startChatServer(() => answer('A page about something.', 400));
    const provider = endpointProvider({ url: chat.baseUrl, model: 'm' }, fetch);
    const job = await createDescribeJob(db, ORIGIN);
    if ('error' in job) throw new Error(job.error);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    expect(await runDescribeJob(db, job.id, provider, { concurrency: 2, maxPages: 100, signal: controller.signal })).toBe('cancelled');
    expect((await db.jobs.get(job.id))?.message).toMatch(/^Cancelled: 0 written/);
    expect(chat.requests).toHaveLength(2);
  });

  it('after a newer crawl that stored nothing, the panel counts and the job describes the crawl with pages', async () => {
    await crawledSite();
    await db.jobs.add({ id: 'c2', origin: ORIGIN, kind: 'crawl', state: 'cancelled', createdAt: 2, startUrl: `${ORIGIN}/`, settings: DEFAULT_SETTINGS, counters: {} });
    expect(await pagesToDescribe(db, ORIGIN)).toBe(5);
    const job = await createDescribeJob(db, ORIGIN);
    expect(job).toMatchObject({ crawlJobId: 'c1' });
  });
});

describe('site summary', () => {
  it('writes the blockquote from the page list with the user’s model, and keeps Scout’s own when the call fails', async () => {
    await crawledSite();
    const first = await generateForSite(db, ORIGIN, new Date());
    const own = first?.output.summary;
    let fail = false;
    chat = await startChatServer((body) => {
      const system = body.messages?.find((m) => m.role === 'system')?.content ?? '';
      if (!system.includes('one-line summary')) return answer('A page note.');
      return fail ? serverError(503) : answer('Docs for the Example toolkit: installing it, configuring it and its API.');
    });
    const config = { url: chat.baseUrl, model: 'm' };
    expect(await describeSite(db, ORIGIN, config, { fetch, providerId: 'endpoint:m' })).toEqual({ summary: 'Docs for the Example toolkit: installing it, configuring it and its API.' });
    // The model saw the page list (titles), not page bodies.
    const sent = chat.requests.at(-1)?.body.messages?.find((m) => m.role === 'user')?.content ?? '';
    expect(sent).toContain('- install');
    expect(sent).not.toContain('at some length');
    const withModel = await generateForSite(db, ORIGIN, new Date(), { descriptionsBy: 'endpoint:m' });
    expect(withModel?.output.llmsTxt).toContain('> Docs for the Example toolkit: installing it, configuring it and its API.');
    // Another provider (or none) does not see it.
    expect((await generateForSite(db, ORIGIN, new Date()))?.output.summary).toBe(own);

    fail = true;
    await db.descriptions.clear();
    const before = chat.requests.length;
    const failed = await describeSite(db, ORIGIN, config, { fetch, providerId: 'endpoint:m', baseDelayMs: 10 });
    expect(failed).toEqual({ reason: expect.stringMatching(/503/) });
    expect(chat.requests.length - before).toBe(3); // one call and two retries
    expect((await generateForSite(db, ORIGIN, new Date(), { descriptionsBy: 'endpoint:m' }))?.output.summary).toBe(own);
  });
});
