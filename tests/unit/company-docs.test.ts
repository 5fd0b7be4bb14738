import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANIES, acme } from '../fixtures/company-sites';
import { llmsLinks, measureCompany, misses, namesDocs, pageKey } from '../fixtures/company-sites/measure';
import { loopbackFetch, startFixtureServer, type FixtureServer } from '../fixtures/server';

// Issue #27's done-when on sites built the way companies put docs on the web
// (tests/fixtures/company-sites/): with default settings, from the docs home and from deep pages,
// ≥ 95 % of the docs stored, ≤ 5 % of what is stored outside the docs, no llms.txt entry that is
// not docs, an H1 naming the docs, no other version or language stored, no request to another site.
// `npm run bench:companies` prints the same figures as a table.

const fetchFn = loopbackFetch();

describe('the company fixtures themselves', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer(Object.assign({}, ...COMPANIES.map((c) => c.sites())));
  });
  afterAll(() => server.close());

  const get = async (host: string, path: string) => {
    const res = await fetchFn(server.url(host, path), { redirect: 'manual' });
    return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
  };

  it.each(COMPANIES)('$id serves every docs page as distinct HTML, starts inside the docs, and links other sites from the docs', async (company) => {
    const bodies = new Map<string, string>();
    let html = '';
    for (const page of company.docs) {
      const res = await get(page.host, page.path);
      html += res.text;
      expect(res.status, `${page.host}${page.path}`).toBe(200);
      expect(res.type).toMatch(/^text\/html/);
      // The whole text, template and all: no two docs pages read alike, so no duplicate check folds them.
      const main = res.text.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
      expect(bodies.has(main), `${page.path} repeats ${bodies.get(main)}`).toBe(false);
      bodies.set(main, page.path);
    }
    const docs = new Set(company.docs.map((d) => pageKey(server.url(d.host, d.path))));
    expect(docs.size).toBe(company.docs.length);
    for (const start of company.starts) expect(docs.has(pageKey(server.url(start.host, start.path))), start.label).toBe(true);
    // The docs link every other site of the list (edit links, social links): a crawl is tempted.
    for (const host of company.offSite) expect(html.includes(`//${host}:`), host).toBe(true);
    for (const host of company.offSite) expect(company.docs.some((d) => d.host === host)).toBe(false);
  });

  it('acme: the forum pages on forever, other versions are served, the docs sitemap lists two versions', async () => {
    const deep = await get('community.acme.test', '/latest?page=5000');
    expect(deep.status).toBe(200);
    expect(deep.text).toContain('href="/latest?page=5001"');
    expect((await get('docs.acme.test', '/en/latest/user-guide/fixtures.html')).status).toBe(200);
    expect(acme.isOtherVariant(new URL(server.url('docs.acme.test', '/en/latest/user-guide/fixtures.html')))).toBe(true);
    expect(acme.isOtherVariant(new URL(server.url('docs.acme.test', '/en/stable/user-guide/fixtures.html')))).toBe(false);
    const sitemap = await get('docs.acme.test', '/sitemap.xml');
    expect(sitemap.text).toContain('/en/stable/');
    expect(sitemap.text).toContain('/en/latest/');
    expect((await get('docs.acme.test', '/llms.txt')).status).toBe(404);
  });

  it('beta lists its docs in /docs/llms.txt; delta lists only some in /en/v2/llms.txt; gamma has neither sitemap nor llms.txt', async () => {
    const beta = COMPANIES.find((c) => c.id === 'beta');
    const delta = COMPANIES.find((c) => c.id === 'delta');
    if (!beta || !delta) throw new Error('missing company');
    const betaLinks = llmsLinks((await get('www.beta.test', '/docs/llms.txt')).text);
    expect(new Set(betaLinks.map(pageKey))).toEqual(new Set(beta.docs.map((d) => pageKey(server.url(d.host, d.path)))));
    const deltaLinks = llmsLinks((await get('help.delta.test', '/en/v2/llms.txt')).text);
    expect(deltaLinks.length).toBeGreaterThan(10);
    expect(deltaLinks.length).toBeLessThan(delta.docs.length / 2);
    expect((await get('www.beta.test', '/sitemap.xml')).text).toContain('/blog/');
    for (const path of ['/sitemap.xml', '/llms.txt', '/robots.txt']) expect((await get('developers.gamma.test', path)).status).toBe(404);
    expect((await get('help.delta.test', '/sitemap.xml')).status).toBe(404);
  });

  it('an H1 names the docs only with the docs’ own name, not the bare company', () => {
    expect(namesDocs(acme, 'Acme 4.2 documentation')).toBe(true);
    expect(namesDocs(acme, ' acme  documentation ')).toBe(true);
    expect(namesDocs(acme, 'Acme')).toBe(false);
    expect(namesDocs(acme, 'Acme Community')).toBe(false);
  });
});

describe('the measurement can fail', () => {
  it('acme crawled over its whole site stores the company around the docs, and the figures say so', async () => {
    const start = acme.starts[0];
    if (!start) throw new Error('no start');
    const run = await measureCompany(acme, start, { settings: { scope: 'site', maxPages: 150 } });
    expect(run.outside / run.stored).toBeGreaterThan(0.05);
    expect(misses(run).join('; ')).toMatch(/outside/);
  }, 60_000);
});

describe.each(COMPANIES)('$id with default settings', (company) => {
  it.each(company.starts)('from $label: the docs, not the company around them', async (start) => {
    const run = await measureCompany(company, start);
    const why = `from ${run.startUrl}; ${JSON.stringify(run.examples)}`;
    expect.soft(run.docsStored / run.docsTotal, `docs stored ${run.docsStored}/${run.docsTotal}; ${why}`).toBeGreaterThanOrEqual(0.95);
    expect.soft(run.outside / Math.max(1, run.stored), `outside the docs ${run.outside}/${run.stored}; ${why}`).toBeLessThanOrEqual(0.05);
    expect.soft(run.llmsNotDocs, `llms.txt entries not docs; ${why}`).toBe(0);
    expect.soft(run.h1NamesDocs, `llms.txt H1 "${run.h1}" does not name the docs (${company.docsNames.join(' / ')})`).toBe(true);
    expect.soft(run.variantsStored, `other versions or languages stored; ${why}`).toBe(0);
    expect.soft(run.offSiteRequests, `requests to other sites; ${why}`).toBe(0);
    expect(run.crawlState).toBe('done');
  }, 60_000);
});
