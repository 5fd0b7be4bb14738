import { answer, pageUrlOf, serverError, startChatServer } from '../fixtures/chat-server';
import { generatedSite } from '../fixtures/generated-site';
import { startFixtureServer, type FixtureSite, type Route } from '../fixtures/server';
import { readStore } from './extension-db';
import { expect, test } from './fixtures';
import { crawlToEnd } from './steps';

const KEY = 'sk-e2e-secret-4242424242';

test('AI descriptions from the user’s endpoint: asked consent first, bounded, cached, fallbacks listed, the key kept local', async ({ openPanel, server }) => {
  // A real chat-completions server on loopback, reached as llm.example.test (host resolver rules).
  const chat = await startChatServer((body) => {
    const url = pageUrlOf(body);
    if (!url) return answer('Acorn DB is an embedded database; its docs cover installation, transactions and the API.');
    if (url.endsWith('/guide/transactions.html')) return serverError(500);
    return answer(`Model note for ${new URL(url).pathname} in one sentence.`, 80);
  }, { apiKey: KEY });
  try {
    // Over plain http an API key may only go to a server on this computer: a key typed for another
    // host is refused before it is saved. The run below uses the same server as localhost.
    const remote = `http://llm.example.test:${new URL(chat.baseUrl).port}/v1`;
    const endpoint = `http://localhost:${new URL(chat.baseUrl).port}/v1`;
    const panel = await openPanel(server.url('docs.scout-demo.test', '/guide/'));
    await crawlToEnd(panel, { timeout: 30_000 });
    await panel.getByTestId('see-output').click();
    await expect(panel.getByTestId('output')).toBeVisible({ timeout: 15_000 });

    // Chrome's on-device model is offered only where the browser says it can be used.
    const builtin = await panel.evaluate(async () => {
      const s = (globalThis as { Summarizer?: { availability(): Promise<string> } }).Summarizer;
      return s ? s.availability().catch(() => 'unavailable') : 'unavailable';
    });
    await expect(panel.locator('[data-testid=provider] option[value=builtin]')).toHaveCount(builtin === 'unavailable' ? 0 : 1);

    await panel.locator('.settings__more summary', { hasText: 'Provider' }).click();
    await panel.getByTestId('provider').selectOption('endpoint');
    await panel.getByTestId('endpoint-url').fill(remote);
    await panel.getByTestId('endpoint-model').fill('test-model');
    await panel.getByTestId('endpoint-key').fill(KEY);
    await panel.getByTestId('endpoint-concurrency').fill('2');
    await panel.getByTestId('save-provider').click();
    await expect(panel.getByTestId('provider-note')).toContainText('unencrypted to llm.example.test');
    await panel.getByTestId('endpoint-url').fill(endpoint);
    await panel.getByTestId('save-provider').click();
    await expect(panel.getByTestId('provider-note')).toHaveText('Saved.');

    // Nothing is sent before the user agrees to what will be sent where.
    await panel.getByTestId('describe-start').click();
    await expect(panel.getByTestId('describe-consent')).toContainText(`localhost:${new URL(chat.baseUrl).port}`);
    await expect(panel.getByTestId('describe-consent')).toContainText('test-model');
    expect(chat.requests).toHaveLength(0);
    await panel.getByTestId('describe-agree').click();

    await expect(panel.getByTestId('describe-card')).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
    await expect(panel.getByTestId('describe-message')).toHaveText(/^Descriptions: \d+ written · 0 from earlier runs · 1 kept their own · site summary written$/);
    await expect(panel.getByTestId('describe-fallbacks')).toContainText('/guide/transactions.html');
    await expect(panel.getByTestId('describe-fallbacks')).toContainText('HTTP 500');
    expect(chat.maxInFlight).toBeLessThanOrEqual(2);
    expect(chat.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    // 4 calls for the failing page (1 + 3 retries), one for each other page, one for the site summary.
    const calls = chat.requests.length;
    expect(chat.requests.filter((r) => pageUrlOf(r.body)?.endsWith('/guide/transactions.html'))).toHaveLength(4);

    // The regenerated llms.txt carries the model's notes.
    await panel.getByRole('tab', { name: /^llms\.txt/ }).click();
    await expect(panel.getByTestId('llms-text')).toContainText('Model note for /guide/installation.html in one sentence.', { timeout: 15_000 });
    await expect(panel.getByTestId('llms-text')).toContainText('> Acorn DB is an embedded database; its docs cover installation, transactions and the API.');

    // Again: only the page that failed is sent again; the rest come from the cache.
    await panel.getByTestId('describe-start').click();
    await expect(panel.getByTestId('describe-message')).toHaveText(/^Descriptions: 0 written · \d+ from earlier runs · 1 kept their own · site summary written$/, { timeout: 30_000 });
    // Only the failing page again (and the site summary, which is one call).
    expect(chat.requests.slice(calls).filter((r) => pageUrlOf(r.body)).every((r) => pageUrlOf(r.body)?.endsWith('/guide/transactions.html'))).toBe(true);

    // The endpoint (like Ollama on localhost) is on the user's machine, which Scout's network guard
    // refuses by default: saved as the endpoint, exactly that origin is let through while describing,
    // and saved again it still is.
    const local = `http://localhost:${new URL(chat.baseUrl).port}/v1`;
    await panel.getByTestId('endpoint-url').fill(local);
    await panel.getByTestId('save-provider').click();
    await expect(panel.getByTestId('provider-note')).toHaveText('Saved.');
    const beforeLocal = chat.requests.length;
    // Consent was given for this very endpoint: the run starts at once.
    await panel.getByTestId('describe-start').click();
    await expect(panel.getByTestId('describe-consent')).toHaveCount(0);
    const describeJobs = async () => (await readStore<{ kind: string; state: string; createdAt: number; fallbacks?: Array<{ reason: string }> }>(panel, 'jobs')).filter((j) => j.kind === 'describe').sort((a, b) => a.createdAt - b.createdAt);
    await expect.poll(async () => (await describeJobs()).map((j) => j.state), { timeout: 30_000 }).toEqual(['done', 'done', 'done']);
    // The page the endpoint fails still fails — with the endpoint's HTTP 500, not a blocked request.
    expect((await describeJobs())[2]?.fallbacks?.[0]?.reason).toMatch(/HTTP 500/);
    const viaLocal = chat.requests.slice(beforeLocal);
    expect(viaLocal.length).toBeGreaterThan(0);
    expect(viaLocal.every((r) => r.headers.host === `localhost:${new URL(chat.baseUrl).port}`)).toBe(true);

    // The key is in this device's extension storage only: not synced, not in IndexedDB.
    const stored = await panel.evaluate(async () => {
      const c = (globalThis as unknown as { chrome: { storage: Record<'local' | 'sync', { get(k: null): Promise<Record<string, unknown>> }> } }).chrome;
      return { local: JSON.stringify(await c.storage.local.get(null)), sync: JSON.stringify(await c.storage.sync.get(null)) };
    });
    expect(stored.local).toContain(KEY);
    expect(stored.sync).not.toContain(KEY);
    for (const store of ['jobs', 'pages', 'artifacts', 'descriptions', 'sites']) expect(JSON.stringify(await readStore(panel, store))).not.toContain(KEY);
    await panel.setViewportSize({ width: 400, height: 1000 });
    await panel.getByRole('tab', { name: 'Review' }).click();
    await panel.getByTestId('describe-card').screenshot({ path: 'screenshots/describe.png' });
  } finally {
    await chat.close();
  }
});

test('after a recrawl that stored nothing, descriptions are offered for the crawl the outputs come from', async ({ openPanel }) => {
  // The worker describes the newest crawl *with pages*; the card must count the same crawl, or an
  // empty recrawl (site down, cancelled at once) disables the button and consent names 0 pages.
  let down = false;
  const site = generatedSite(6);
  const root = rootOf(site);
  const docs = await startFixtureServer({ 'gen.example.test': { fallback: (req) => (down ? null : site.fallback?.(req) ?? null), routes: { '/': () => (down ? { status: 404, body: 'Gone for now' } : root) } } });
  try {
    const panel = await openPanel(docs.url('gen.example.test', '/'));
    await crawlToEnd(panel, { timeout: 30_000 });
    await expect(panel.getByTestId('count-stored')).toContainText('6');

    down = true;
    await panel.getByTestId('new-crawl').click();
    await panel.getByTestId('start-crawl').click();
    await expect(panel.getByTestId('crawl-progress')).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
    await expect(panel.getByTestId('count-stored')).toContainText('0');

    await panel.getByTestId('see-output').click();
    await expect(panel.getByTestId('describe-card')).toBeVisible({ timeout: 15_000 });
    await panel.locator('.settings__more summary', { hasText: 'Provider' }).click();
    await panel.getByTestId('provider').selectOption('endpoint');
    await panel.getByTestId('endpoint-url').fill('http://llm.example.test:9/v1');
    await panel.getByTestId('endpoint-model').fill('test-model');
    await panel.getByTestId('save-provider').click();
    await expect(panel.getByTestId('provider-note')).toHaveText('Saved.');
    await expect(panel.getByTestId('describe-start')).toBeEnabled();
    await panel.getByTestId('describe-start').click();
    await expect(panel.getByTestId('describe-consent')).toContainText('up to 6 pages');
  } finally {
    await docs.close();
  }
});

/** The generated site's home page route (its routes hold only '/'). */
function rootOf(site: FixtureSite): Route {
  const root = site.routes?.['/'];
  if (!root || typeof root === 'function') throw new Error('generatedSite serves / as a fixed route');
  return root;
}
