import type { Page } from '@playwright/test';
import { FREEZE_HOST, freezingSite } from '../fixtures/hostile-freeze-site';
import { startFixtureServer } from '../fixtures/server';
import { readStore } from './extension-db';
import { expect, test } from './fixtures';
import { startCrawl } from './steps';

const HOST = FREEZE_HOST;

async function discoveryDone(panel: Page): Promise<void> {
  await expect
    .poll(
      // Until the worker has opened the database, it has no stores to read: not done yet.
      async () => (await readStore<{ kind: string; state: string }>(panel, 'jobs').catch(() => [])).some((j) => j.kind === 'discovery' && j.state === 'done'),
      { timeout: 15_000, message: 'discovery ends' },
    )
    .toBe(true);
}

/**
 * Issue #28, item 1, in real Chromium (tests/fixtures/hostile-freeze-site.ts): discovery reads the
 * site's llms.txt when the panel opens; the crawl converts every page. Each input used to block the
 * worker or the converter for minutes; now the crawl ends as a crawl of six small pages does, and
 * the panel answers.
 */
test('pages and an llms.txt made to freeze Scout are read at once: the crawl ends and the panel answers', async ({ openPanel }) => {
  test.setTimeout(120_000);
  const site = await startFixtureServer({ [HOST]: freezingSite() });
  try {
    const panel = await openPanel(site.url(HOST, '/'));
    await discoveryDone(panel);
    const discovered = await readStore<{ url: string; status: string; text?: string }>(panel, 'discovered');
    expect(discovered.find((d) => d.url === site.url(HOST, '/llms.txt'))).toMatchObject({ status: 'found' });

    const started = Date.now();
    await startCrawl(panel);
    await expect(panel.getByTestId('crawl-progress')).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
    const took = Date.now() - started;

    // The outputs are generated (their token counts included) and shown.
    await panel.getByTestId('see-output').click();
    await expect(panel.getByTestId('output')).toBeVisible({ timeout: 15_000 });
    await expect(panel.getByTestId('llms-size')).toContainText('tokens');
    const generated = Date.now() - started;

    // The panel answers at once: another tab opens and shows its content.
    const clicked = Date.now();
    await panel.getByRole('tab', { name: 'Discovered' }).click();
    await expect(panel.getByTestId('discovered')).toBeVisible({ timeout: 5000 });
    expect(Date.now() - clicked).toBeLessThan(5000);

    const pages = await readStore<{ url: string; title?: string; markdown?: string }>(panel, 'pages');
    const byPath = new Map(pages.map((p) => [new URL(p.url).pathname, p]));
    expect([...byPath.keys()].sort()).toEqual(['/', '/docs/brackets.md', '/docs/escapes.md', '/docs/feff.html', '/docs/nbsp.html', '/docs/spaces.md']);
    expect(byPath.get('/docs/feff.html')?.markdown).toContain(`## Install${'\uFEFF'.repeat(40)} more`);
    expect(byPath.get('/docs/spaces.md')?.title).toBe('x');
    expect(byPath.get('/docs/brackets.md')?.title).toBe('Brackets');
    console.log(`hostile-freeze: six hostile pages crawled in ${took} ms, their outputs shown at ${generated} ms`);
  } finally {
    await site.close();
  }
});
