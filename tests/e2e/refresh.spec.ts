import type { Page } from '@playwright/test';
import { changingSite, sixPages } from '../fixtures/changing-site';
import { generatedSite } from '../fixtures/generated-site';
import { startFixtureServer } from '../fixtures/server';
import { readStore } from './extension-db';
import { expect, test } from './fixtures';
import { crawlToEnd } from './steps';
import { workerStopper } from './worker-stops';

const HOST = 'docs.changing.test';
/** The two extension APIs the test drives from the panel page (an extension page has them). */
interface Chrome {
  chrome: { alarms: { create(name: string, info: { when: number }): Promise<void> }; notifications: { getAll(): Promise<Record<string, boolean>> } };
}

/** Writes one field of the site's row straight into the extension's IndexedDB, from one of its pages. */
async function makeScheduleDue(panel: Page, origin: string): Promise<void> {
  await panel.evaluate(async (key) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('llms-txt-scout');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const store = db.transaction('sites', 'readwrite').objectStore('sites');
    await new Promise<void>((resolve, reject) => {
      const get = store.get(key);
      get.onsuccess = () => {
        const site = get.result as { monitor: { nextAt: number } };
        site.monitor.nextAt = Date.now() - 1000;
        const put = store.put(site);
        put.onsuccess = () => resolve();
        put.onerror = () => reject(put.error);
      };
    });
    db.close();
  }, origin);
}

test('refresh finds exactly the changed and removed pages, makes a new version with their diff, and a scheduled refresh notifies', async ({ openPanel }) => {
  const site = changingSite(sixPages());
  const server = await startFixtureServer({ [HOST]: site.site });
  try {
    const origin = server.origin(HOST);
    const panel = await openPanel(server.url(HOST, '/'));
    await crawlToEnd(panel, { timeout: 30_000 });
    // The first version: its llms.txt and llms-full.txt (and the list of files to publish beside them).
    await expect.poll(async () => (await readStore<{ kind: string }>(panel, 'artifacts')).filter((a) => a.kind === 'llms' || a.kind === 'llms-full').length, { timeout: 15_000 }).toBe(2);

    site.change('/install', 'Installing now needs Node 22: run the new installer script and follow its prompts. The old tarball route is gone and no longer supported in any form.');
    site.change('/api', 'The API was rewritten around streams. Every call now returns an async iterator; callbacks were dropped entirely in this release, see the migration notes.');
    site.remove('/old');

    await panel.getByRole('tab', { name: 'History' }).click();
    await panel.getByTestId('refresh-now').click();
    const card = panel.getByTestId('refresh-card');
    await expect(card).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
    await expect(panel.getByTestId('refresh-checked')).toHaveText('6');
    await expect(panel.getByTestId('refresh-changed')).toHaveText('2');
    await expect(panel.getByTestId('refresh-removed')).toHaveText('1');
    await expect(panel.getByTestId('refresh-unchanged')).toHaveText('3');
    await expect(panel.getByTestId('refresh-failed')).toHaveText('0');
    await expect(panel.getByTestId('refresh-message')).toContainText('new llms.txt version 2');
    const changes = panel.getByTestId('page-changes').locator('li');
    await expect(changes).toHaveCount(3);
    await expect(panel.getByTestId('page-changes').locator('li[data-change=changed]')).toHaveText([/\/api.*Similarity 0\.\d\d < 0\.90/, /\/install.*Similarity/]);
    await expect(panel.getByTestId('page-changes').locator('li[data-change=removed]')).toHaveText([/\/old.*Not found \(HTTP 404\)/]);

    // The removed page is re-checked too (it may come back); still gone counts as unchanged.
    // The diff of v1 → v2: exactly the two changed entries, the removed one, and the page count.
    const versions = panel.getByTestId('versions');
    await expect(versions.locator('[data-version]')).toHaveCount(2);
    const lines = async (kind: 'added' | 'removed') => (await versions.locator(`[data-kind=${kind}] .diff__text`).allInnerTexts()).map((t) => t.match(/\]\((?:https?:\/\/[^/]+)?([^)]*)\)/)?.[1] ?? t);
    await expect.poll(() => lines('removed')).toContain('/old');
    const removed = await lines('removed');
    const added = await lines('added');
    expect(removed.filter((l) => l.startsWith('/')).sort()).toEqual(['/api', '/install', '/old']);
    expect(added.filter((l) => l.startsWith('/')).sort()).toEqual(['/api', '/install']);
    expect(added.filter((l) => !l.startsWith('/'))).toEqual([expect.stringContaining('from 5 pages')]);
    await panel.setViewportSize({ width: 400, height: 1100 });
    await panel.screenshot({ path: 'screenshots/history.png', fullPage: true });

    // A daily schedule, made due, then the schedule's alarm fires: a background refresh and a notification.
    await panel.getByTestId('schedule').selectOption('24');
    await expect(panel.getByTestId('schedule-next')).toContainText('Next check');
    await makeScheduleDue(panel, origin);
    await panel.evaluate(() => (globalThis as unknown as Chrome).chrome.alarms.create('scheduled-refresh', { when: Date.now() + 100 }));
    await expect
      .poll(async () => panel.evaluate(async () => Object.keys(await (globalThis as unknown as Chrome).chrome.notifications.getAll())), { timeout: 30_000 })
      .toEqual([`refresh:${origin}`]);
    const jobs = await readStore<{ kind: string; scheduled?: boolean; state: string; message: string }>(panel, 'jobs');
    expect(jobs.filter((j) => j.kind === 'refresh' && j.scheduled)).toEqual([expect.objectContaining({ state: 'done', message: 'Refreshed: 6 checked · 6 unchanged · 0 changed · 0 removed · 0 failed' })]);
    await expect(panel.getByTestId('job-history').locator('tr[data-kind=refresh]')).toHaveCount(2);
    // The schedule moved on by a day.
    const sites = await readStore<{ origin: string; monitor?: { nextAt?: number } }>(panel, 'sites');
    expect(sites.find((s) => s.origin === origin)?.monitor?.nextAt).toBeGreaterThan(Date.now() + 23 * 3_600_000);
  } finally {
    await server.close();
  }
});

test('a refresh survives the browser stopping its service worker: every page checked once', async ({ openPanel, context, extensionId }) => {
  test.setTimeout(120_000);
  const site = await startFixtureServer({ 'big.example.test': generatedSite(300, { delayMs: 40 }) });
  try {
    const panel = await openPanel(site.url('big.example.test', '/'));
    await crawlToEnd(panel, { timeout: 60_000 });
    // The first version: its llms.txt and llms-full.txt (and the list of files to publish beside them).
    await expect.poll(async () => (await readStore<{ kind: string }>(panel, 'artifacts')).filter((a) => a.kind === 'llms' || a.kind === 'llms-full').length, { timeout: 15_000 }).toBe(2);

    await panel.getByRole('tab', { name: 'History' }).click();
    await panel.getByTestId('refresh-now').click();
    const worker = await workerStopper(context, panel, extensionId);
    const checked = async () => Number(await panel.getByTestId('refresh-checked').innerText().catch(() => '0'));
    for (let kill = 0; kill < 2; kill++) {
      const before = await checked();
      await expect.poll(checked, { timeout: 20_000 }).toBeGreaterThan(before + 20);
      await worker.stop();
    }
    expect(worker.stops()).toBeGreaterThanOrEqual(2);
    await expect(panel.getByTestId('refresh-card')).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
    await expect(panel.getByTestId('refresh-checked')).toHaveText('300');
    await expect(panel.getByTestId('refresh-unchanged')).toHaveText('300');
    // One page version per page: none lost, none checked twice.
    const jobs = await readStore<{ id: string; kind: string }>(panel, 'jobs');
    const refreshId = jobs.find((j) => j.kind === 'refresh')?.id;
    const versions = (await readStore<{ jobId: string; key: string }>(panel, 'pageVersions')).filter((v) => v.jobId === refreshId);
    expect(versions).toHaveLength(300);
    expect(new Set(versions.map((v) => v.key)).size).toBe(300);
  } finally {
    await site.close();
  }
});
