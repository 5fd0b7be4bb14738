import { afterAll, beforeAll, expect, it } from 'vitest';
import { HIDDEN_HOP_REFUSED } from '@/lib/fetch/redirects';
import { PUBLIC_HOST, privateNetworkSite } from '../fixtures/private-network-site';
import { startFixtureServer, type FixtureServer } from '../fixtures/server';
import { launchScoutFirefox, type ScoutFirefox } from './firefox';
import { click, readStore, waitForAttribute, waitForText, waitUntil } from './panel';

/**
 * Firefox follows a redirect inside fetch() without showing Scout the hop, as Chrome does,
 * so the same declarativeNetRequest block rules must stop a public page's redirect into the
 * user's network. Measured without them: Firefox requested http://127.0.0.1/…/landed and
 * http://localhost/…/llms-full.txt. The fixture server listens on 127.0.0.1, so any request
 * that got through shows in its log under that Host.
 */
let port = 0;
let server: FixtureServer;
let ff: ScoutFirefox;

beforeAll(async () => {
  server = await startFixtureServer(privateNetworkSite(() => port));
  port = server.port;
  ff = await launchScoutFirefox([PUBLIC_HOST]);
});
afterAll(async () => {
  await ff?.close();
  await server?.close();
});

it('a public site’s redirects into the user’s network are never requested', async () => {
  const panel = await ff.openPanel(server.url(PUBLIC_HOST, '/'));
  await click(panel, '[data-testid=host-access] button');
  await waitForText(panel, '[data-testid=host-access-state]', /^Allowed on public\.test and subdomains$/);
  await waitUntil(async () => (await readStore<{ kind: string; state: string }>(panel, 'jobs')).some((j) => j.kind === 'discovery' && j.state === 'done'), Boolean, 'discovery to finish');
  await click(panel, '[data-tab=generate]');
  await click(panel, '[data-testid=start-crawl]');
  await waitForAttribute(panel, '[data-testid=crawl-progress]', 'data-state', 'done', 30_000);

  expect([...new Set(server.requests.map((r) => r.host))]).toEqual([PUBLIC_HOST]);
  // The redirecting pages themselves were asked for; only the hop into the network was refused.
  expect(server.requests.filter((r) => r.path === '/moved').length).toBeGreaterThan(0);
  const frontier = await readStore<{ url: string; state: string; reason?: string }>(panel, 'frontier');
  expect(frontier.find((f) => f.url === server.url(PUBLIC_HOST, '/moved'))).toMatchObject({ state: 'skipped', reason: HIDDEN_HOP_REFUSED });
  expect(ff.errors).toEqual([]);
});
