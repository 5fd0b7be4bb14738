import { expect, test } from './fixtures';
import { crawlToEnd } from './steps';

/**
 * The export bar's buttons when what they need fails: here a damaged page row, so building the
 * zip and the JSON from the pages throws. Each failure is said in plain words in place of the
 * "working" note, and the buttons stay there to try again.
 */
test('Zip and JSON say why they failed, and can be tried again', async ({ openPanel, server }) => {
  const panel = await openPanel(server.url('docs.scout-demo.test', '/guide/'));
  await expect(panel.locator('[data-testid=file-row]').first()).toBeVisible();
  await crawlToEnd(panel, { timeout: 20_000 });
  await panel.getByTestId('see-output').click();
  await expect(panel.getByTestId('export-bar')).toBeVisible({ timeout: 15_000 });
  const note = panel.locator('.export-bar__note');

  // Copy works (an extension page with a click may always write the clipboard in Chromium, so
  // its refusal cannot be staged here; Copy goes through the same error path as Zip and JSON).
  await panel.getByTestId('copy-llms').click();
  await expect(note).toHaveText('llms.txt copied to the clipboard.');

  // A stored page without its text or date (as a damaged or half-migrated row could be): building
  // the zip and the JSON from the pages fails.
  const damaged = (put: boolean) =>
    panel.evaluate(
      (put) =>
        new Promise<void>((resolve, reject) => {
          const open = indexedDB.open('llms-txt-scout');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const idb = open.result;
            const tx = idb.transaction(['jobs', 'pages'], 'readwrite');
            const jobs = tx.objectStore('jobs').getAll();
            jobs.onsuccess = () => {
              const crawl = (jobs.result as Array<{ id: string; kind: string }>).find((j) => j.kind === 'crawl');
              const key = 'http://docs.scout-demo.test/damaged';
              if (put) tx.objectStore('pages').put({ jobId: crawl?.id, key, url: key, finalUrl: key, state: 'stored', title: 'Damaged', markdown: null, depth: 1 });
              else tx.objectStore('pages').delete([crawl?.id ?? '', key]);
            };
            tx.oncomplete = () => {
              idb.close();
              resolve();
            };
            tx.onerror = () => reject(tx.error);
          };
        }),
      put,
    );
  await damaged(true);
  await panel.getByTestId('download-zip').click();
  await expect(note).toHaveText(/^Could not build the zip: .+ Try again\.$/, { timeout: 10_000 });
  await panel.getByTestId('download-json').click();
  await expect(note).toHaveText(/^Could not build the JSON file: .+ Try again\.$/, { timeout: 10_000 });
  // Once the damaged row is gone, trying again works.
  await damaged(false);
  const [zip] = await Promise.all([panel.waitForEvent('download'), panel.getByTestId('download-zip').click()]);
  expect(zip.suggestedFilename()).toBe('docs.scout-demo.test-llms-txt.zip');
  await expect(note).toHaveText(/^Zip of \d+ pages saved\./);
});
