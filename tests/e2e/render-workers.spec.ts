import { startFixtureServer } from '../fixtures/server';
import { latestCrawl, readStore } from './extension-db';
import { expect, test } from './fixtures';
import { startCrawl } from './steps';

// Issue #28 item 6: a page rendered in Scout's background tab starts a SharedWorker, whose
// requests carry no tab id, so the tab's own block rules did not see them: the worker reached
// loopback and the user's network. The page shows its text only once the worker has tried, so
// the render cannot end before the attempt.

test('a rendered page’s SharedWorker cannot reach the user’s network either', async ({ context, openPanel }) => {
  // The "user's network": one server on 127.0.0.1, also reached as router.local (--host-resolver-rules).
  const intranet = await startFixtureServer({});
  const p = intranet.port;
  const text = 'Text that only the script writes, once its worker has tried the network. '.repeat(4);
  const site = await startFixtureServer({
    'evil.lumen.test': {
      routes: {
        '/': {
          headers: { 'content-type': 'text/html; charset=utf-8' },
          body: `<!doctype html><html><head><title>App</title></head><body><noscript>Please enable JavaScript.</noscript><div id="root"></div><script src="/app.js"></script></body></html>`,
        },
        '/app.js': {
          headers: { 'content-type': 'text/javascript' },
          body: `const worker = new SharedWorker('/shared.js');
worker.port.onmessage = () => { document.getElementById('root').innerHTML = '<main><h1>Evil docs</h1><p>${text}</p></main>'; };
worker.port.start();`,
        },
        '/shared.js': {
          headers: { 'content-type': 'text/javascript' },
          body: `onconnect = (event) => {
  const port = event.ports[0];
  Promise.allSettled([fetch('http://127.0.0.1:${p}/worker-secret'), fetch('http://router.local:${p}/worker-router')]).then(() => port.postMessage('tried'));
};`,
        },
      },
    },
  });
  try {
    const panel = await openPanel(site.url('evil.lumen.test', '/'));
    await startCrawl(panel);
    await expect(panel.getByTestId('crawl-progress')).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
    const { job } = await latestCrawl(panel);
    const pages = (await readStore<{ jobId: string; url: string; markdown: string; rendered?: boolean; state: string }>(panel, 'pages')).filter((row) => row.jobId === job?.id && row.state === 'stored');
    // Rendered, and the text is there: the worker ran and tried both addresses before the tab was read.
    expect(pages.find((row) => new URL(row.url).pathname === '/')?.markdown).toContain('Text that only the script writes');
    expect(site.requests.map((r) => r.path)).toContain('/shared.js');
    expect(intranet.requests.map((r) => `${r.host}${r.path}`)).toEqual([]);

    // The same page in a tab of the user's own reaches them (no render running, no rule): the attempt is real.
    const own = await context.newPage();
    await own.goto(site.url('evil.lumen.test', '/'));
    await expect.poll(() => intranet.requests.map((r) => r.host).sort()).toEqual(['127.0.0.1', 'router.local']);
    await own.close();
  } finally {
    await site.close();
    await intranet.close();
  }
});

test('started on the user’s own machine, a rendered page’s ServiceWorker still cannot reach other private hosts', async ({ context, openPanel }) => {
  // localhost is a secure context, so the page may register a ServiceWorker (an http *.test page may not);
  // a crawl started there is the intranet case, where Chromium's Local Network Access does not step in.
  const intranet = await startFixtureServer({});
  const p = intranet.port;
  const text = 'Text that only the script writes, once its service worker has tried the network. '.repeat(4);
  const site = await startFixtureServer({
    localhost: {
      routes: {
        '/': {
          headers: { 'content-type': 'text/html; charset=utf-8' },
          body: `<!doctype html><html><head><title>App</title></head><body><noscript>Please enable JavaScript.</noscript><div id="root"></div><script src="/app.js"></script></body></html>`,
        },
        '/app.js': {
          headers: { 'content-type': 'text/javascript' },
          body: `navigator.serviceWorker.addEventListener('message', () => { document.getElementById('root').innerHTML = '<main><h1>Local docs</h1><p>${text}</p></main>'; });
navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready).then((registration) => registration.active.postMessage('try'));`,
        },
        '/sw.js': {
          headers: { 'content-type': 'text/javascript' },
          body: `self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('message', (event) => {
  event.waitUntil(Promise.allSettled([fetch('http://127.0.0.1:${p}/sw-secret'), fetch('http://router.local:${p}/sw-router')]).then(() => event.source.postMessage('tried')));
});`,
        },
      },
    },
  });
  try {
    const panel = await openPanel(site.url('localhost', '/'));
    await startCrawl(panel);
    await expect(panel.getByTestId('crawl-progress')).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
    const { job } = await latestCrawl(panel);
    const pages = (await readStore<{ jobId: string; url: string; markdown: string; state: string }>(panel, 'pages')).filter((row) => row.jobId === job?.id && row.state === 'stored');
    expect(pages.find((row) => new URL(row.url).pathname === '/')?.markdown).toContain('Text that only the script writes');
    expect(site.requests.map((r) => r.path)).toContain('/sw.js');
    expect(intranet.requests.map((r) => `${r.host}${r.path}`)).toEqual([]);

    const own = await context.newPage();
    await own.goto(site.url('localhost', '/'));
    await expect.poll(() => intranet.requests.map((r) => r.host).sort()).toEqual(['127.0.0.1', 'router.local']);
    await own.close();
  } finally {
    await site.close();
    await intranet.close();
  }
});
