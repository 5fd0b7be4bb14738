/**
 * A crawled page's preview shows it as Scout serves it (llms-full.txt, search, exports): without the
 * block the site repeats at the end of every page. "As stored" shows the record as the crawl kept
 * it, repeated block included; unticked, the served text again.
 */
import { startFixtureServer, type FixtureServer, type FixtureSite } from '../fixtures/server';
import { expect, test } from './fixtures';
import { crawlToEnd } from './steps';

const HOST = 'widgets.example.test';
const REPEATED = 'Found a mistake on this page? Tell the docs team on the project tracker.';
const html = (body: string) => ({ headers: { 'content-type': 'text/html; charset=utf-8' }, body: `<!doctype html><html><head><title>Widgets</title></head><body>${body}</body></html>` });

/** Six pages, each ending its main text with the same sentence. */
function widgetSite(): FixtureSite {
  const routes: FixtureSite['routes'] = {};
  const links = [1, 2, 3, 4, 5].map((i) => `<li><a href="/topic-${i}.html">Topic ${i}</a></li>`).join('');
  routes['/'] = html(`<main><h1>Widgets</h1><p>How the widgets of every kind are set up and looked after.</p><ul>${links}</ul><p>${REPEATED}</p></main>`);
  for (const i of [1, 2, 3, 4, 5]) {
    routes[`/topic-${i}.html`] = html(
      `<nav><a href="/">Home</a></nav><main><h1>Topic ${i}</h1><p>Widgets of kind ${i} turn the crank ${i} times before they stop, and each turn moves the gear by ${i} teeth.</p>` +
        `<h2>Setting up kind ${i}</h2><p>Install the kind ${i} widget beside the frame and tighten its ${i} screws by hand.</p><p>${REPEATED}</p></main>`,
    );
  }
  return { routes };
}

let site: FixtureServer;
test.beforeAll(async () => {
  site = await startFixtureServer({ [HOST]: widgetSite() });
});
test.afterAll(() => site.close());

test('a page preview leaves out the block the site repeats; "As stored" shows the page as crawled', async ({ openPanel }) => {
  const panel = await openPanel(site.url(HOST, '/'));
  await crawlToEnd(panel);
  await expect(panel.getByTestId('count-stored')).toContainText('6');
  await panel.getByRole('button', { name: 'Crawled', exact: true }).click();
  await panel.getByTestId('page-row').filter({ hasText: '/topic-3.html' }).getByRole('button').click();

  const preview = panel.getByTestId('page-preview');
  const markdown = panel.getByTestId('page-markdown');
  const asStored = panel.getByTestId('page-as-stored');
  // The site's repeated block is known once the crawl's llms.txt is generated.
  await expect(asStored).toBeVisible({ timeout: 30_000 });
  await expect(preview).toContainText("without the site's repeated chrome");
  await expect(markdown).toContainText('# Topic 3');
  await expect(markdown).toContainText('tighten its 3 screws by hand');
  await expect(markdown).not.toContainText(REPEATED);

  await asStored.check();
  await expect(markdown).toContainText(REPEATED);
  await expect(markdown).toContainText('tighten its 3 screws by hand');
  await expect(preview).not.toContainText("without the site's repeated chrome");

  await asStored.uncheck();
  await expect(markdown).not.toContainText(REPEATED);
});
