import { describe, expect, it } from 'vitest';
import { inferBoundary, nameFromTitle } from '@/lib/url/boundary';
import type { BoundaryEvidence, DocsBoundary } from '@/lib/url/boundary';
import { createScope } from '@/lib/url/scope';

const evidence = (startUrl: string, more: Partial<BoundaryEvidence> = {}): BoundaryEvidence => ({ startUrl, nav: [], llms: [], sitemapUrls: [], ...more });
const nav = (...urls: string[]) => urls.map((url, i) => ({ url, title: `Page ${i}`, depth: 0 }));
const pages = (prefix: string, n: number, ext = '.html') => Array.from({ length: n }, (_, i) => `${prefix}page-${i}${ext}`);
const roots = (b: DocsBoundary) => b.roots.map((r) => `${new URL(r.origin).host}${r.path}`).sort();

describe('inferBoundary — where the docs are', () => {
  it('Read the Docs versions: the version folder, not the other versions nor a Home link above it', () => {
    const b = inferBoundary(
      evidence('https://docs.acme.test/en/stable/', {
        nav: nav('https://docs.acme.test/', ...pages('https://docs.acme.test/en/stable/', 40), 'https://docs.acme.test/en/latest/', 'https://docs.acme.test/en/3.2/'),
        title: 'Welcome — Acme 4.2 documentation',
        siteName: 'Acme',
      }),
    );
    expect(roots(b)).toEqual(['docs.acme.test/en/stable/']);
    expect(b.why.join('\n')).toMatch(/sidebar links 43 pages on docs\.acme\.test, 40 of them under docs\.acme\.test\/en\/stable\//);
    expect(b.why.join('\n')).toMatch(/Other versions and languages are left out \(the start page is in version stable, language en\)/);
    expect(b.name).toBe('Acme 4.2 documentation');
    expect(b.nav).toHaveLength(43);
  });

  it('docs under /docs/ of a company host: that folder, the company Home link left out', () => {
    const b = inferBoundary(evidence('https://www.beta.test/docs/', { nav: nav('https://www.beta.test/', ...pages('https://www.beta.test/docs/intro/', 8, ''), ...pages('https://www.beta.test/docs/guides/', 12, '')) }));
    expect(roots(b)).toEqual(['www.beta.test/docs/']);
    expect(b.why.join('\n')).toContain('1 sidebar link elsewhere on www.beta.test left out (www.beta.test/)');
    const scope = createScope({ startUrl: 'https://www.beta.test/docs/', mode: 'docs', boundary: b });
    expect(scope('https://www.beta.test/docs/guides/page-3')).toBeNull();
    expect(scope('https://www.beta.test/blog/2024/a-post')).toBe('Outside the documentation (www.beta.test/blog/)');
    expect(scope('https://www.beta.test/pricing')).toBe('Outside the documentation (www.beta.test/)');
  });

  it('docs at the root of a host: the whole host', () => {
    const b = inferBoundary(
      evidence('https://developers.gamma.test/', { nav: nav(...pages('https://developers.gamma.test/getting-started/', 5, ''), ...pages('https://developers.gamma.test/guides/', 10, ''), ...pages('https://developers.gamma.test/reference/', 10, '')) }),
    );
    expect(roots(b)).toEqual(['developers.gamma.test/']);
    expect(b.why[0]).toBe("The docs' sidebar links 25 pages, all under developers.gamma.test/");
  });

  it('an API reference on its own host linked from the sidebar is part of the docs; the company home is not', () => {
    const b = inferBoundary(
      evidence('https://help.delta.test/en/v2/', {
        nav: nav(...pages('https://help.delta.test/en/v2/', 20), 'https://api.delta.test/reference/', 'https://api.delta.test/reference/auth', 'https://www.delta.test/'),
      }),
    );
    expect(roots(b)).toEqual(['api.delta.test/reference/', 'help.delta.test/en/v2/']);
    expect(b.why.join('\n')).toContain('The sidebar links 2 pages on api.delta.test/reference/: part of the docs');
    expect(b.why.join('\n')).toContain("The sidebar's link to www.delta.test/ (the company's home, not the docs) left out");
    // A single link to an API host's home makes that whole host a root.
    const single = inferBoundary(evidence('https://docs.acme.test/en/stable/', { nav: nav(...pages('https://docs.acme.test/en/stable/', 20), 'https://api.acme.test/') }));
    expect(roots(single)).toEqual(['api.acme.test/', 'docs.acme.test/en/stable/']);
    // Another site is never a root, however often the sidebar links it (an "Edit on GitHub" link).
    const offSite = inferBoundary(evidence('https://docs.acme.test/', { nav: nav(...pages('https://docs.acme.test/', 10), ...pages('https://github.test/acme/docs/edit/', 10)) }));
    expect(roots(offSite)).toEqual(['docs.acme.test/']);
  });

  it('a deep start page: the version folder even when the sidebar shows one section only', () => {
    const b = inferBoundary(evidence('https://docs.acme.test/en/stable/guide/advanced/config.html', { nav: nav(...pages('https://docs.acme.test/en/stable/guide/', 6)) }));
    expect(roots(b)).toEqual(['docs.acme.test/en/stable/']);
    const noVersion = inferBoundary(evidence('https://www.beta.test/docs/guides/deep/page', { nav: nav(...pages('https://www.beta.test/docs/intro/', 6, ''), ...pages('https://www.beta.test/docs/guides/deep/', 6, '')) }));
    expect(roots(noVersion)).toEqual(['www.beta.test/docs/']);
  });

  it('a second tree beside the main one (three links or more) is a root of its own; a lone link is not', () => {
    const b = inferBoundary(
      evidence('https://www.corp.test/docs/guide/', {
        nav: nav(...pages('https://www.corp.test/docs/guide/', 30), ...pages('https://www.corp.test/docs/api/', 4), 'https://www.corp.test/careers/'),
      }),
    );
    expect(roots(b)).toEqual(['www.corp.test/docs/api/', 'www.corp.test/docs/guide/']);
    expect(b.why.join('\n')).toContain('The sidebar also links 4 pages under www.corp.test/docs/api/');
    expect(b.why.join('\n')).toContain('(www.corp.test/careers/)');
  });

  it('an llms.txt whose folder holds the start page covers that folder and names the docs', () => {
    const b = inferBoundary(
      evidence('https://www.beta.test/docs/intro', {
        title: 'Intro | Beta',
        siteName: 'Beta',
        llms: [
          { url: 'https://www.beta.test/llms.txt', title: 'Beta Inc.', links: ['https://www.beta.test/pricing', 'https://www.beta.test/blog/'] },
          { url: 'https://www.beta.test/docs/llms.txt', title: 'Beta documentation', links: [...pages('https://www.beta.test/docs/', 5), ...pages('https://api.beta.test/ref/', 3)] },
        ],
      }),
    );
    expect(roots(b)).toEqual(['api.beta.test/ref/', 'www.beta.test/docs/']);
    expect(b.why[0]).toBe('llms.txt at www.beta.test/docs/llms.txt covers www.beta.test/docs/');
    expect(b.name).toBe('Beta documentation');
    // Listed: the llms links of both files, inside (8) and outside (2).
    expect(b.listed).toEqual({ inside: 8, outside: 2, fromSitemaps: false, fromLlms: true });
  });

  it('no sidebar and no llms.txt: the start page host, or its version folder', () => {
    expect(roots(inferBoundary(evidence('https://docs.plain.test/guide/x.html')))).toEqual(['docs.plain.test/']);
    const versioned = inferBoundary(evidence('https://docs.plain.test/v3/guide/x.html'));
    expect(roots(versioned)).toEqual(['docs.plain.test/v3/']);
    expect(versioned.why[0]).toBe('No sidebar or llms.txt says where the docs end: the crawl keeps to docs.plain.test/v3/');
  });

  it('the page a redirect ended on and a canonical address elsewhere on the site', () => {
    const redirected = inferBoundary(evidence('https://docs.acme.test/', { finalUrl: 'https://docs.acme.test/en/stable/' }));
    expect(roots(redirected)).toEqual(['docs.acme.test/en/stable/']);
    const canonical = inferBoundary(evidence('https://mirror.acme.test/guide/', { canonical: 'https://docs.acme.test/en/stable/guide/', nav: nav(...pages('https://mirror.acme.test/guide/', 5)) }));
    expect(roots(canonical)).toEqual(['docs.acme.test/en/stable/', 'mirror.acme.test/guide/']);
    // A canonical on another site is not followed.
    expect(roots(inferBoundary(evidence('https://docs.acme.test/a/', { canonical: 'https://other.test/a/' })))).toEqual(['docs.acme.test/']);
  });

  it('docs at the root of a host: the parts only the menus link are left out, and a translation the page names', () => {
    const sidebar = nav('https://developers.gamma.test/', ...pages('https://developers.gamma.test/guides/', 10, ''), ...pages('https://developers.gamma.test/reference/', 10, ''), ...pages('https://developers.gamma.test/', 0));
    const chromeLinks = ['https://developers.gamma.test/', 'https://developers.gamma.test/pricing', 'https://developers.gamma.test/blog/', 'https://developers.gamma.test/reference/payments/create', 'https://developers.gamma.test/fr/guides/page-1', 'https://www.gamma.test/about'];
    const alternates = [{ url: 'https://developers.gamma.test/fr/guides/page-1', lang: 'fr' }, { url: 'https://developers.gamma.test/guides/page-1', lang: 'en' }];
    const b = inferBoundary(evidence('https://developers.gamma.test/guides/page-1', { nav: sidebar, chromeLinks, alternates }));
    expect(roots(b)).toEqual(['developers.gamma.test/']);
    expect(b.excluded?.map((e) => e.path)).toEqual(['/fr/', '/blog/', '/pricing']);
    const scope = createScope({ startUrl: 'https://developers.gamma.test/guides/page-1', mode: 'docs', boundary: b });
    expect(scope('https://developers.gamma.test/reference/page-3')).toBeNull();
    expect(scope('https://developers.gamma.test/blog/page/2')).toBe("Outside the documentation (developers.gamma.test/blog/: the site's menus link it, the docs' sidebar does not)");
    expect(scope('https://developers.gamma.test/pricing')).toMatch(/^Outside the documentation \(developers\.gamma\.test\/pricing:/);
    expect(scope('https://developers.gamma.test/fr/reference/page-1')).toBe("Another language (fr; the start page's translation is under /fr/)");
    expect(b.why).toContain('The fr translation under developers.gamma.test/fr/ is left out (another language)');
    // A sidebar that links pages at the host's root keeps every page there (Sphinx's glossary.html, genindex.html).
    const rootPages = inferBoundary(evidence('https://docs.test/', { nav: nav(...pages('https://docs.test/', 12)), chromeLinks: ['https://docs.test/genindex.html', 'https://docs.test/_sources/index.rst.txt'] }));
    expect(rootPages.excluded?.map((e) => e.path)).toEqual(['/_sources/']);
    // A short sidebar is no tree to tell the site's parts by; docs in a folder of their own need none of this.
    expect(inferBoundary(evidence('https://docs.test/', { nav: nav(...pages('https://docs.test/a/', 5)), chromeLinks: ['https://docs.test/blog/'] })).excluded).toBeUndefined();
    expect(inferBoundary(evidence('https://www.beta.test/docs/', { nav: nav(...pages('https://www.beta.test/docs/', 20)), chromeLinks: ['https://www.beta.test/blog/'] })).excluded).toBeUndefined();
  });

  it('counts what the sitemaps list inside and outside, other versions outside', () => {
    const b = inferBoundary(
      evidence('https://docs.acme.test/en/stable/', {
        nav: nav(...pages('https://docs.acme.test/en/stable/', 10)),
        sitemapUrls: [...pages('https://docs.acme.test/en/stable/', 10), ...pages('https://docs.acme.test/en/latest/', 10), 'https://docs.acme.test/search.html'],
      }),
    );
    expect(b.listed).toEqual({ inside: 10, outside: 11, fromSitemaps: true, fromLlms: false });
  });
});

describe('nameFromTitle', () => {
  it.each([
    ['Install — Acme 4.2 documentation', 'Acme', 'Acme 4.2 documentation'],
    ['Acme Docs | Install', 'Acme', 'Acme Docs'],
    ['Getting started - Gamma Developers', undefined, 'Gamma Developers'],
    ['Acme documentation', 'Acme', 'Acme documentation'],
    ['Overview', 'Acme', 'Acme'],
    ['Overview', undefined, undefined],
    [undefined, 'Acme', 'Acme'],
  ])('%s (site %s) → %s', (title, site, name) => {
    expect(nameFromTitle(title, site)).toBe(name);
  });
});

describe('the docs scope', () => {
  const boundary = inferBoundary(evidence('https://docs.acme.test/en/stable/', { nav: nav(...pages('https://docs.acme.test/en/stable/', 10), 'https://api.acme.test/') }));
  const scope = createScope({ startUrl: 'https://docs.acme.test/en/stable/', mode: 'docs', boundary });

  it('keeps to the roots and says which part of the site a URL is in', () => {
    expect(scope('https://docs.acme.test/en/stable/page-3.html')).toBeNull();
    expect(scope('https://api.acme.test/users/list')).toBeNull();
    expect(scope('https://www.acme.test/blog/page/7')).toBe('Outside the documentation (www.acme.test/blog/)');
    expect(scope('https://community.acme.test/t/how-do-i/17')).toBe('Outside the documentation (community.acme.test/t/)');
  });

  it('names another version as such, and guards the private network first', () => {
    expect(scope('https://docs.acme.test/en/latest/page-3.html')).toBe('Another version of the docs (latest; crawling stable)');
    expect(scope('http://192.168.1.1/en/stable/')).toMatch(/network/i);
  });

  it('always keeps the start page, which may sit above the docs it redirects into', () => {
    const above = createScope({ startUrl: 'https://docs.acme.test/', mode: 'docs', boundary });
    expect(above('https://docs.acme.test/')).toBeNull();
    expect(above('https://docs.acme.test/other/')).toBe('Outside the documentation (docs.acme.test/other/)');
  });

  it('without a boundary keeps to the start host', () => {
    const host = createScope({ startUrl: 'https://docs.acme.test/en/stable/', mode: 'docs' });
    expect(host('https://docs.acme.test/somewhere')).toBeNull();
    expect(host('https://www.acme.test/')).toBe('On another host (www.acme.test)');
  });
});
