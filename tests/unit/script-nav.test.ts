import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { navFromScript } from '@/lib/convert/script-nav';
import { isAlphabeticalIndexMarkdown } from '@/lib/generate/page-class';
import { crawlSite } from '@/lib/headless/crawl-site';
import { FILES, GUIDES, STRUCTS, scriptMenuSite, TABS } from '../fixtures/generators/script-menu';
import { perTest } from '../fixtures/per-test';
import { docsifySite } from '../fixtures/spa-sites';
import { loopbackFetch } from '../fixtures/server';

// Navigation a script draws from data (Doxygen's tab bar from menudata.js) is read as data, never
// run: the crawl reaches the sections' pages and the llms.txt's sections are the tabs, in order.

vi.setConfig({ testTimeout: 60_000 });

const HOST = 'api.tally.test';
const made = perTest('script-nav');
const BASE = 'http://api.tally.test/index.html';

describe('navFromScript', () => {
  it('reads a tree of {label, url, children} literals, a URL seen before not listed again', () => {
    const nav = navFromScript('var menudata={children:[{text:"Main Page",url:"index.html"},{text:"Guides",url:"pages.html"},{text:"Files",url:"files.html",children:[{text:"File List",url:"files.html"},{text:"Globals",url:"globals.html",children:[{text:"a",url:"globals.html#index_a"},{text:"Functions",url:"globals_func.html"}]}]}]};', BASE);
    expect(nav).toEqual([
      { title: 'Main Page', url: 'http://api.tally.test/index.html', depth: 0 },
      { title: 'Guides', url: 'http://api.tally.test/pages.html', depth: 0 },
      { title: 'Files', url: 'http://api.tally.test/files.html', depth: 0 },
      { title: 'Globals', url: 'http://api.tally.test/globals.html', depth: 1 },
      { title: 'Functions', url: 'http://api.tally.test/globals_func.html', depth: 2 },
    ]);
  });

  it('reads the entries whatever their keys are called, and leaves other sites out', () => {
    const nav = navFromScript(`window.sidebar = [{ 'label': 'Intro', 'href': '/docs/intro' }, { 'label': 'Guide', 'href': '/docs/guide/' }, { 'label': 'Blog', 'href': 'https://elsewhere.test/blog/' }, { 'label': 'API', 'href': '/docs/api.html' },];`, BASE);
    expect(nav.map((link) => link.url)).toEqual(['http://api.tally.test/docs/intro', 'http://api.tally.test/docs/guide/', 'http://api.tally.test/docs/api.html']);
  });

  it('finds no navigation in code or in a menu of fewer than three pages', () => {
    expect(navFromScript('!function(e,t){var n=[],r={a:1};e.x=function(){return n}}(window);', BASE)).toEqual([]);
    expect(navFromScript('var menu = [{text:"Home",url:"index.html"},{text:"Search",url:"search.html"}];', BASE)).toEqual([]);
  });
});

describe('a member index by shape', () => {
  it('is a list of names each followed only by links to where it is defined, under letter headings or none', () => {
    const nbsp = '\u00a0';
    expect(isAlphabeticalIndexMarkdown(`Here is a list of all functions with links to the files they belong to:\n\n# \\- t -\n\n- tally_add()${nbsp}:${nbsp}[tally.h](http://x.test/tally_8h.html#a1)\n- tally_new()${nbsp}:${nbsp}[tally.h](http://x.test/tally_8h.html#a2)\n`)).toBe(true);
    expect(isAlphabeticalIndexMarkdown(`- count : [tally_counter](http://x.test/a.html#a0)\n- width : [tally_window](http://x.test/b.html#a1), [tally_bucket](http://x.test/c.html#a4)\n`)).toBe(true);
    // A page of its own headings, or whose items say something, is documentation.
    expect(isAlphabeticalIndexMarkdown(`# Options\n\n- count : [tally_counter](http://x.test/a.html#a0)\n- width : [tally_window](http://x.test/b.html#a1)\n`)).toBe(false);
    expect(isAlphabeticalIndexMarkdown(`- count : the number of events, see [tally_counter](http://x.test/a.html#a0)\n- width : [tally_window](http://x.test/b.html#a1)\n`)).toBe(false);
  });
});

describe('a crawl of a site whose tab bar is drawn by script', () => {
  it('reaches every tab and makes the tabs the sections, in the bar\'s order, the member indexes Optional', async () => {
    const server = await made.serve({ [HOST]: scriptMenuSite() });
    const result = await crawlSite({ db: made.db(), startUrl: server.url(HOST, '/index.html'), fetch: loopbackFetch(), settings: { maxPages: 200, maxDepth: 10 }, now: new Date('2026-01-01T00:00:00Z') });
    const output = result.generated?.output;
    if (!output) throw new Error(`nothing generated (${result.crawlState})`);
    const main = output.sections.filter((section) => !section.optional);
    // The start page alone in the root group opens the first section (foldLandingPage).
    expect(main.map((section) => section.name)).toEqual(TABS);
    const paths = (name: string) => (main.find((section) => section.name === name)?.entries ?? []).map((entry) => new URL(entry.pageUrl).pathname);
    expect(paths('Related Pages')).toEqual(['/index.html', '/pages.html', ...GUIDES.map((g) => `/md_${g.toLowerCase()}.html`)]);
    expect(paths('Data Structures').sort()).toEqual(['/annotated.html', ...STRUCTS.map((s) => `/struct${s.replace(/_/g, '__')}.html`)].sort());
    expect(paths('Files').sort()).toEqual(['/files.html', ...FILES.map((f) => `/${f.replace(/_/g, '__').replace('.h', '_8h')}.html`)].sort());
    const optional = output.sections.filter((section) => section.optional).flatMap((section) => section.entries.map((entry) => new URL(entry.pageUrl).pathname));
    expect(optional.sort()).toEqual(['/functions.html', '/globals.html', '/globals_func.html']);
  });
});

describe('a client-rendered shell', () => {
  it('has no menu read from its scripts: they are its app, read from its Markdown instead', async () => {
    const server = await made.serve({ 'docsify.lumen.test': docsifySite() });
    const result = await crawlSite({ db: made.db(), startUrl: server.url('docsify.lumen.test', '/'), fetch: loopbackFetch(), rendering: true, now: new Date('2026-01-01T00:00:00Z') });
    expect(result.generated?.output.llmsTxt ?? '').toContain('](');
    expect(server.requests.filter((r) => r.path.endsWith('.js')).map((r) => r.path)).toEqual([]);
  });
});
