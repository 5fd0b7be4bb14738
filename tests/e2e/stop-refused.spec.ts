import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { crawlToEnd } from './steps';

/**
 * Sets the state of the newest job of `kind` straight in the extension's IndexedDB, from the panel
 * page. The panel's live queries see only writes made through the store, so the panel goes on
 * showing the state it had: what a panel meets when the job ended (or was stopped in another
 * window) a moment before the press reached the worker.
 */
async function setJobState(panel: Page, kind: 'crawl' | 'refresh', state: string): Promise<void> {
  await panel.evaluate(
    async ({ kind, state }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open('llms-txt-scout');
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      try {
        await new Promise<void>((resolve, reject) => {
          const tx = db.transaction('jobs', 'readwrite');
          const store = tx.objectStore('jobs');
          const all = store.getAll();
          all.onsuccess = () => {
            const job = (all.result as Array<{ kind: string; createdAt: number; state: string }>).filter((j) => j.kind === kind).sort((a, b) => b.createdAt - a.createdAt)[0];
            if (!job) return reject(new Error(`no ${kind} job`));
            store.put({ ...job, state });
          };
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
        });
      } finally {
        db.close();
      }
    },
    { kind, state },
  );
}

/** Shows `kind`'s newest job as `shown` (the panel reopened on it), while the worker's store says `actual`. */
async function showStale(panel: Page, kind: 'crawl' | 'refresh', shown: string, actual: string, card: () => Promise<void>): Promise<void> {
  await setJobState(panel, kind, shown);
  await panel.reload();
  await card();
  // Before the panel's stall watch would wake the worker for a "running" job with no progress (4 s).
  await setJobState(panel, kind, actual);
}

test('Pause, Resume and Cancel of a crawl that already ended say why nothing happened, and stay usable', async ({ openPanel, server }) => {
  test.setTimeout(90_000);
  const panel = await openPanel(server.url('docs.scout-demo.test', '/guide/'));
  await crawlToEnd(panel);
  const progress = panel.getByTestId('crawl-progress');
  const shows = (state: string) => async () => {
    await panel.getByRole('tab', { name: 'Generate' }).click();
    await expect(progress).toHaveAttribute('data-state', state);
  };

  await showStale(panel, 'crawl', 'running', 'done', shows('running'));
  await panel.getByTestId('pause').click();
  await expect(progress.getByRole('alert')).toHaveText(/^Nothing to pause: this crawl is no longer running\./);
  await expect(panel.getByTestId('pause')).toBeEnabled();
  await panel.getByTestId('cancel').click();
  await expect(progress.getByRole('alert')).toHaveText(/^Nothing to cancel: this crawl has already ended\./);
  await expect(panel.getByTestId('cancel')).toBeEnabled();

  await showStale(panel, 'crawl', 'paused', 'done', shows('paused'));
  await panel.getByTestId('resume').click();
  await expect(progress.getByRole('alert')).toHaveText(/^This crawl can no longer be resumed: it has already ended\./);
  await expect(panel.getByTestId('resume')).toBeEnabled();
});

test('Pause and Cancel of a refresh that already ended say why nothing happened, and stay usable', async ({ openPanel, server }) => {
  test.setTimeout(90_000);
  const panel = await openPanel(server.url('docs.scout-demo.test', '/guide/'));
  await crawlToEnd(panel);
  await panel.getByRole('tab', { name: 'History' }).click();
  const card = panel.getByTestId('refresh-card');
  await panel.getByTestId('refresh-now').click();
  await expect(card).toHaveAttribute('data-state', 'done', { timeout: 30_000 });

  await showStale(panel, 'refresh', 'running', 'done', async () => {
    await panel.getByRole('tab', { name: 'History' }).click();
    await expect(card).toHaveAttribute('data-state', 'running');
  });
  await card.getByRole('button', { name: 'Pause' }).click();
  await expect(card.getByRole('alert')).toHaveText(/^Nothing to pause: this refresh is no longer running\./);
  await card.getByRole('button', { name: 'Cancel' }).click();
  await expect(card.getByRole('alert')).toHaveText(/^Nothing to cancel: this refresh has already ended\./);
  await expect(card.getByRole('button', { name: 'Cancel' })).toBeEnabled();
  await expect(card.getByRole('button', { name: 'Pause' })).toBeEnabled();
});
