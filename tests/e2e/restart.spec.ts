import { test, expect } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatedPaths, generatedSite } from '../fixtures/generated-site';
import { startFixtureServer } from '../fixtures/server';
import { launchWithExtension } from './browser';
import { latestCrawl } from './extension-db';
import { startCrawl } from './steps';

async function crawlState(page: import('@playwright/test').Page): Promise<{ state?: string; paths: string[] }> {
  const { job, paths } = await latestCrawl(page);
  return { state: job?.state, paths };
}

test('closing the browser mid-crawl loses nothing: the crawl resumes when it starts again', async () => {
  test.setTimeout(120_000);
  const site = await startFixtureServer({ 'restart.example.test': generatedSite(200, { delayMs: 30 }) });
  const profile = mkdtempSync(join(tmpdir(), 'scout-restart-'));
  try {
    const first = await launchWithExtension({ userDataDir: profile });
    const panelUrl = `chrome-extension://${first.extensionId}/sidepanel.html?url=${encodeURIComponent(site.url('restart.example.test', '/'))}`;
    const panel = await first.context.newPage();
    await panel.goto(panelUrl);
    await startCrawl(panel);
    await expect.poll(async () => (await crawlState(panel)).paths.length, { timeout: 30_000 }).toBeGreaterThan(30);
    await first.context.close(); // the whole browser goes away mid-crawl

    const before = site.requests.length;
    const second = await launchWithExtension({ userDataDir: profile });
    const again = await second.context.newPage();
    await again.goto(panelUrl);
    // The panel opens on Generate only if the crawl is still running when it loads; the resumed
    // crawl may already have finished by then (it did in CI), so go to it as the user would.
    await again.getByRole('tab', { name: 'Generate' }).click();
    await expect(again.getByTestId('crawl-progress')).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
    expect(site.requests.length).toBeGreaterThan(before); // it really carried on after the restart
    expect((await crawlState(again)).paths).toEqual(generatedPaths(200).sort());
    await second.context.close();
  } finally {
    await site.close();
    // The profile outlives the first browser on purpose, so it is this test's to remove.
    rmSync(profile, { recursive: true, force: true });
  }
});
