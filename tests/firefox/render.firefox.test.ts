import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../fixtures/server';
import { SPA_PAGES } from '../fixtures/spa-content';
import { docsifyRoutes, docsifySite, reactSpaPaths, reactSpaSite } from '../fixtures/spa-sites';
import { launchScoutFirefox, type ScoutFirefox } from './firefox';
import { click, readStore, waitForAttribute, waitForText, waitUntil } from './panel';

/**
 * Client-rendered sites (#16) in Firefox ESR with the shipped build: the same React app rendered
 * in inactive tabs of Firefox (tabs, scripting and tab-scoped DNR rules in an MV2 background
 * page), and the docsify site read from its Markdown. Both hosts share one grant (lumen.test).
 */
const SPA = 'app.lumen.test';
const DOCSIFY = 'docsify.lumen.test';
let server: FixtureServer;
let ff: ScoutFirefox;

beforeAll(async () => {
  server = await startFixtureServer({ [SPA]: reactSpaSite({ dataDelayMs: 60 }), [DOCSIFY]: docsifySite() });
  ff = await launchScoutFirefox([SPA, DOCSIFY]);
});
afterAll(async () => {
  await ff?.close();
  await server?.close();
});

interface PageRow { jobId: string; url: string; markdown: string; rendered?: boolean; state: string }
interface JobRow { id: string; kind: string; state: string; createdAt: number; startedAt: number; endedAt: number; counters: Record<string, number> }

async function crawl(host: string) {
  const panel = await ff.openPanel(server.url(host, '/'));
  if (host === SPA) {
    await click(panel, '[data-testid=host-access] button');
    await waitForText(panel, '[data-testid=host-access-state]', /^Allowed on lumen\.test and subdomains$/);
  }
  await click(panel, '[data-tab=generate]');
  await click(panel, '[data-testid=start-crawl]');
  await waitForAttribute(panel, '[data-testid=crawl-progress]', 'data-state', 'done', 90_000);
  const job = (await readStore<JobRow>(panel, 'jobs')).filter((j) => j.kind === 'crawl').sort((a, b) => b.createdAt - a.createdAt)[0];
  const pages = (await readStore<PageRow>(panel, 'pages')).filter((p) => p.jobId === job?.id && p.state === 'stored');
  return { panel, job, pages };
}

const siteTabs = async (host: string) => (await ff.browser.pages()).filter((p) => /^https?:/.test(p.url()) && new URL(p.url()).hostname === host);

it('renders the React app’s pages in background tabs and leaves none open', async () => {
  const { panel, job, pages } = await crawl(SPA);
  expect(pages.map((p) => new URL(p.url).pathname).sort()).toEqual(reactSpaPaths());
  for (const page of SPA_PAGES) expect(pages.find((p) => p.url.endsWith(`/docs/${page.slug}`))?.markdown).toContain(page.marker);
  expect(pages.every((p) => p.rendered)).toBe(true);
  console.log(`Firefox: 26 rendered pages in ${((job?.endedAt ?? 0) - (job?.startedAt ?? 0)) / 1000} s`);
  await waitUntil(() => siteTabs(SPA), (tabs) => tabs.length === 0, 'no render tab left');
  expect(await readStore(panel, 'renderTabs')).toEqual([]);
  expect(ff.errors).toEqual([]);
}, 120_000);

it('reads the docsify site from its Markdown, without a tab', async () => {
  const requestsBefore = server.requests.length;
  const { pages } = await crawl(DOCSIFY);
  expect(pages.map((p) => p.url).sort()).toEqual(docsifyRoutes(server.origin(DOCSIFY)));
  // docsify's script was never loaded: no tab ran the site.
  expect(server.requests.slice(requestsBefore).some((r) => r.path.startsWith('/vendor/'))).toBe(false);
  expect(ff.errors).toEqual([]);
});
