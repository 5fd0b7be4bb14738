import { startFixtureServer } from '../fixtures/server';
import { versionedSite } from '../fixtures/versioned-site';
import { expect, test } from './fixtures';
import { crawlToEnd } from './steps';

test('a versioned, translated site: the crawl stays in /en/stable/, the panel lists the other versions and languages, one click crawls another', async ({ openPanel }) => {
  const site = await startFixtureServer({ 'docs.versioned.test': versionedSite() });
  try {
    const panel = await openPanel(site.url('docs.versioned.test', '/en/stable/'));
    await crawlToEnd(panel, { timeout: 20_000 });

    // Not one page of another version or language was requested.
    const pages = site.requests.map((r) => r.path).filter((p) => /^\/[a-z-]+\/[^/]+\//.test(p));
    expect(pages.length).toBeGreaterThan(0);
    expect(pages.filter((p) => !p.startsWith('/en/stable/'))).toEqual([]);

    const card = panel.getByTestId('variants');
    await expect(card).toContainText('version stable, language en');
    const values = await card.getByTestId('variant').evaluateAll((els) => els.map((el) => el.getAttribute('data-value')));
    expect(values.sort()).toEqual(['3.2', 'ja', 'latest', 'pt-br']);
    await panel.setViewportSize({ width: 380, height: 900 });
    await card.screenshot({ path: 'screenshots/crawl-variants.png' });

    // One click crawls the Japanese docs of the same version, and only them.
    const before = site.requests.length;
    await card.getByRole('button', { name: 'Crawl language ja' }).click();
    // The card comes back once the new crawl has stopped, now for the Japanese docs.
    await expect(panel.getByTestId('variants')).toContainText('version stable, language ja', { timeout: 20_000 });
    await expect(panel.getByTestId('crawl-progress')).toHaveAttribute('data-state', 'done');
    const second = site.requests.slice(before).map((r) => r.path).filter((p) => /^\/[a-z-]+\/[^/]+\//.test(p));
    expect(second.length).toBeGreaterThan(0);
    expect(second.filter((p) => !p.startsWith('/ja/stable/'))).toEqual([]);
  } finally {
    await site.close();
  }
});
