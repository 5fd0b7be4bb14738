import type { BrowserContext } from '@playwright/test';
import { startFixtureServer, type FixtureServer } from '../fixtures/server';
import { SPA_HOME, SPA_PAGES } from '../fixtures/spa-content';
import { inlineShellPaths, inlineShellSite } from '../fixtures/spa-sites';
import { latestCrawl, readStore } from './extension-db';
import { expect, test } from './fixtures';
import { startCrawl } from './steps';

// Issue #27 item 5 in real Chromium: a docs app whose whole code is one inline script (no bundle),
// with an empty #docs and a <noscript> plea, is rendered in background tabs on Auto; the one page
// its app leaves empty is stored marked empty, said on the card and in the list, and not in llms.txt.

const HOST = 'inline.lumen.test';
let server: FixtureServer;
test.beforeAll(async () => {
  server = await startFixtureServer({ [HOST]: inlineShellSite({ emptyPaths: ['/docs/glossary'] }) });
});
test.afterAll(() => server?.close());

interface PageRow { jobId: string; url: string; markdown: string; rendered?: boolean; empty?: string; state: string }

const tabsOn = (context: BrowserContext) => context.pages().filter((p) => /^https?:/.test(p.url()) && new URL(p.url()).hostname === HOST);

test('an app in one inline script is rendered in Auto; the page it leaves empty is marked and kept out of llms.txt', async ({ context, openPanel }) => {
  test.setTimeout(120_000);
  const panel = await openPanel(server.url(HOST, '/'));
  await panel.getByRole('tab', { name: 'Generate' }).click();
  await expect(panel.getByTestId('render-mode')).toHaveValue('auto');
  await startCrawl(panel);
  await expect(panel.getByTestId('crawl-progress')).toHaveAttribute('data-state', 'done', { timeout: 100_000 });

  const { job } = await latestCrawl(panel);
  const pages = (await readStore<PageRow>(panel, 'pages')).filter((p) => p.jobId === job?.id && p.state === 'stored');
  expect(pages.map((p) => new URL(p.url).pathname).sort()).toEqual(inlineShellPaths());
  for (const page of SPA_PAGES.filter((p) => p.slug !== 'glossary')) expect(pages.find((p) => p.url.endsWith(`/docs/${page.slug}`))?.markdown).toContain(page.marker);
  expect(pages.find((p) => new URL(p.url).pathname === '/')?.markdown).toContain(SPA_HOME.marker);
  expect(pages.every((p) => p.rendered)).toBe(true);
  const glossary = pages.find((p) => p.url.endsWith('/docs/glossary'));
  expect(glossary?.markdown).toBe('');
  expect(glossary?.empty).toBe('Empty page: no text even once rendered in a tab — left out of llms.txt and llms-full.txt');
  // No stored page has empty Markdown without its mark.
  expect(pages.filter((p) => p.markdown.trim() === '' && !p.empty)).toEqual([]);

  await expect(panel.getByTestId('crawl-message')).toHaveText(/^Done: 26 pages stored · 26 rendered in a tab · 1 empty \(no text, left out of the files\)/);
  await expect(panel.getByTestId('page-list')).toContainText('Rendered in a tab: Client-rendered shell: 0 characters of text · empty #docs · <noscript> asks for JavaScript · 1 inline script');
  await expect(panel.getByTestId('page-row').filter({ hasText: '/docs/glossary' })).toContainText('Empty page: no text even once rendered in a tab — left out of llms.txt and llms-full.txt');
  expect(tabsOn(context)).toHaveLength(0);

  await expect.poll(async () => (await readStore<{ kind: string }>(panel, 'artifacts')).some((a) => a.kind === 'llms'), { timeout: 30_000 }).toBe(true);
  const llms = (await readStore<{ kind: string; version: number; text: string }>(panel, 'artifacts')).filter((a) => a.kind === 'llms').sort((a, b) => b.version - a.version)[0]?.text ?? '';
  expect(llms).toContain(`](${server.url(HOST, '/docs/forms')})`);
  expect(llms).not.toContain(`](${server.url(HOST, '/docs/glossary')})`);
  console.log(`inline-script shell: ${pages.length} pages in ${(((job?.endedAt ?? 0) - (job?.startedAt ?? 0)) / 1000).toFixed(1)} s`);
});
