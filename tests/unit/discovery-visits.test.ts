import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Agent, buildConnector, getGlobalDispatcher, setGlobalDispatcher, type Dispatcher } from 'undici';
import { db } from '@/lib/store/db';
import { isKind } from '@/lib/store/queries';
import { setUpDiscovery } from '@/entrypoints/background/discovery';
import { JobRegistry } from '@/lib/jobs/registry';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { startFixtureServer, type FixtureServer, type FixtureSite, type Route } from '../fixtures/server';
import { command, fakeExtension } from './fake-extension';
import { until } from './background-helpers';

// A public-looking host, as a reader's docs site is: the worker's fetch (the global one) is sent to
// the fixture server on loopback whatever the name, as Chromium's --host-resolver-rules would.
const HOST = 'docs.acme-cloud.com';

const page = (title: string, delayMs = 0): Route => ({
  delayMs,
  headers: { 'content-type': 'text/html; charset=utf-8', link: '</docs/llms.txt>; rel="describedby"' },
  body: `<!doctype html><html><head><title>${title}</title><link rel="sitemap" href="/sitemap.xml"></head><body><main><h1>${title}</h1><p>Reading ${title}.</p></main></body></html>`,
});

/** 20 pages in four folders: /docs/, /docs/guide/, /docs/api/, /docs/api/v2/. */
const PAGES = [
  ...['intro', 'install', 'faq', 'terms', 'changelog'].map((p) => `/docs/${p}.html`),
  ...['start', 'config', 'deploy', 'scale', 'debug'].map((p) => `/docs/guide/${p}.html`),
  ...['auth', 'users', 'orders', 'errors', 'limits', 'hooks'].map((p) => `/docs/api/${p}.html`),
  ...['auth', 'users', 'orders', 'search'].map((p) => `/docs/api/v2/${p}.html`),
];

/** `slowMs`: how long each page takes to answer. */
function site(slowMs = 0): FixtureSite {
  const routes: FixtureSite['routes'] = {
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: `User-agent: *\nAllow: /\nSitemap: http://${HOST}/sitemap.xml\n` },
    '/sitemap.xml': { headers: { 'content-type': 'application/xml' }, body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${PAGES.map((p) => `<url><loc>http://${HOST}${p}</loc></url>`).join('')}</urlset>` },
    '/docs/llms.txt': { headers: { 'content-type': 'text/plain' }, body: `# Acme Cloud docs\n\n> Docs.\n\n## Guide\n\n- [Start](http://${HOST}/docs/guide/start.html)\n- [API](http://${HOST}/docs/api/llms.txt)\n` },
    '/docs/api/llms.txt': { headers: { 'content-type': 'text/plain' }, body: '# Acme Cloud API\n\n> The API.\n' },
  };
  for (const p of PAGES) routes[p] = page(p, slowMs);
  return { routes };
}

let server: FixtureServer | undefined;
let previous: Dispatcher;
beforeAll(() => (previous = getGlobalDispatcher()));
afterAll(() => setGlobalDispatcher(previous));
afterEach(async () => {
  await server?.close();
  await db.jobs.clear();
  await db.discovered.clear();
});

/** Until the server has seen the page and nothing else for a while: the visit (or run) it set off is over. */
async function quiet(srv: FixtureServer, path: string): Promise<void> {
  const end = Date.now() + 15_000;
  for (;;) {
    const last = srv.requests.at(-1)?.at ?? 0;
    if (srv.requests.some((r) => r.path === path) && Date.now() - last > 250) {
      const stillRunning = await db.jobs.filter((j) => j.kind === 'discovery' && j.state === 'running').count();
      if (stillRunning === 0) return;
    }
    if (Date.now() > end) throw new Error(`no quiet after ${path}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('discovery kept per site', () => {
  it('20 pages opened one after another: one discovery of the site, then only each page and one probe round per new folder', async () => {
    fakeExtension();
    server = await startFixtureServer({ [HOST]: site() });
    const connect = buildConnector({});
    const port = String(server.port);
    setGlobalDispatcher(new Agent({ connect: (options, callback) => connect({ ...options, hostname: '127.0.0.1', port }, callback) }));
    setUpDiscovery();
    const srv = server;

    const url = (p: string) => `http://${HOST}${p}`;
    const first = await command('startDiscovery', { url: url(PAGES[0] ?? ''), visit: true });
    if (!('jobId' in first)) throw new Error('expected a job');
    await quiet(srv, PAGES[0] ?? '');
    const fullRun = srv.requests.length;
    const answers: unknown[] = [];
    for (const p of PAGES.slice(1)) {
      answers.push(await command('startDiscovery', { url: url(p), visit: true }));
      await quiet(srv, p);
    }
    const visits = srv.requests.slice(fullRun).map((r) => r.path);
    const count = (path: string) => srv.requests.filter((r) => r.path === path).length;
    // Three folders beyond the first page's (/docs/guide/, /docs/api/, /docs/api/v2/): five llms names each.
    const newFolders = 3;
    const probeRound = 5;
    console.log(`first page: ${fullRun} requests (the site's discovery); 19 more pages: ${visits.length} requests (${visits.length - 19} beyond the pages)`);
    expect(visits.length).toBeLessThanOrEqual(19 + newFolders * probeRound);
    expect(visits.filter((p) => !PAGES.includes(p)).sort()).toEqual(
      ['/docs/guide/', '/docs/api/', '/docs/api/v2/'].flatMap((dir) => ['llms.txt', 'llms-full.txt', 'llms.md', 'llms.mdx', 'llms.markdown'].map((n) => `${dir}${n}`)).filter((p) => p !== '/docs/api/llms.txt').sort(),
    );
    // robots.txt, the sitemap, /.well-known/ and files already found are asked once, by the site's discovery.
    for (const once of ['/robots.txt', '/sitemap.xml', '/.well-known/llms.txt', '/docs/llms.txt', '/docs/api/llms.txt']) expect(count(once), once).toBe(1);
    for (const p of PAGES) expect(count(p), p).toBe(1);
    // Every visit answers the site's one discovery.
    expect(answers).toEqual(PAGES.slice(1).map(() => ({ jobId: first.jobId })));

    // The rows the visits looked at joined the site's discovery, still one job.
    const jobs = (await db.jobs.toArray()).filter(isKind('discovery'));
    expect(jobs.map((j) => j.id)).toEqual([first.jobId]);
    const rows = await db.discovered.where('jobId').equals(first.jobId).toArray();
    expect(rows.map((r) => r.url)).toContain(url('/docs/api/v2/llms.md'));
    expect(jobs[0]?.counters.checked).toBe(rows.length);

    // Re-run discovers the site again, as a new run.
    const rerun = await command('startDiscovery', { url: url('/docs/guide/start.html') });
    if (!('jobId' in rerun)) throw new Error('expected a job');
    expect(rerun.jobId).not.toBe(first.jobId);
    await quiet(srv, '/docs/guide/start.html');
    expect(count('/robots.txt')).toBe(2);
  }, 60_000);

  it('visits run on the worker’s job registry: the worker is kept up from a visit asked for until the last one ends', async () => {
    fakeExtension();
    server = await startFixtureServer({ [HOST]: site(400) });
    const connect = buildConnector({});
    const port = String(server.port);
    setGlobalDispatcher(new Agent({ connect: (options, callback) => connect({ ...options, hostname: '127.0.0.1', port }, callback) }));
    const keptUp: boolean[] = [];
    const jobs = new JobRegistry({ start: () => keptUp.push(true), stop: () => keptUp.push(false) });
    setUpDiscovery({ db, browser: fakeBrowser, jobs });
    const url = (p: string) => `http://${HOST}${p}`;
    await command('startDiscovery', { url: url('/docs/intro.html'), visit: true });
    await quiet(server, '/docs/intro.html');
    await until(async () => jobs.size === 0);
    expect(keptUp).toEqual([true, false]);

    // Two pages in folders the site's discovery did not look at: each visit probes its folder.
    for (const p of ['/docs/guide/start.html', '/docs/api/v2/auth.html']) await command('startDiscovery', { url: url(p), visit: true });
    expect(keptUp.at(-1)).toBe(true);
    await until(async () => server?.requests.some((r) => r.path === '/docs/api/v2/auth.html') ?? false);
    expect(jobs.size).toBe(1);
    expect(keptUp.at(-1)).toBe(true);
    await until(async () => jobs.size === 0);
    expect(keptUp).toEqual([true, false, true, false]);
    // The second visit ran after the first: it did not probe /docs/guide/ again.
    expect(server.requests.filter((r) => r.path === '/docs/guide/llms.md')).toHaveLength(1);
  }, 60_000);
});
