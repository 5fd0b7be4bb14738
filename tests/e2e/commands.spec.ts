import { generatedSite } from '../fixtures/generated-site';
import { startFixtureServer } from '../fixtures/server';
import { expect, test } from './fixtures';
import { startCrawl } from './steps';

const HOST = 'slow.example.test';

test('a command the worker never answers says so in the card that sent it, and the next one works', async ({ openPanel }) => {
  test.setTimeout(90_000);
  const site = await startFixtureServer({ [HOST]: generatedSite(300, { delayMs: 200 }) });
  try {
    const panel = await openPanel(site.url(HOST, '/'));
    await startCrawl(panel);
    const progress = panel.getByTestId('crawl-progress');
    await expect(progress).toHaveAttribute('data-state', 'running');

    // What the panel meets when the extension was reloaded under it: every message fails.
    await panel.evaluate(() => {
      const { runtime } = (globalThis as unknown as { chrome: { runtime: { sendMessage: unknown; realSend?: unknown } } }).chrome;
      runtime.realSend = runtime.sendMessage;
      runtime.sendMessage = () => Promise.reject(new Error('Extension context invalidated.'));
    });
    await panel.getByTestId('pause').click();
    await expect(progress.getByRole('alert')).toContainText('did not answer (Extension context invalidated.)');
    await expect(progress).toHaveAttribute('data-state', 'running');

    await panel.evaluate(() => {
      const { runtime } = (globalThis as unknown as { chrome: { runtime: { sendMessage: unknown; realSend?: unknown } } }).chrome;
      runtime.sendMessage = runtime.realSend;
    });
    await panel.getByTestId('pause').click();
    await expect(progress).toHaveAttribute('data-state', 'paused', { timeout: 15_000 });
    await expect(progress.getByRole('alert')).toHaveCount(0);
  } finally {
    await site.close();
  }
});
