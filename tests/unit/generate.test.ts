import { describe, expect, it } from 'vitest';
import { encode } from 'gpt-tokenizer';
import { parseLlmsTxt } from '@/lib/discovery/parse-llms-txt';
import { generateOutputs } from '@/lib/generate/generate';
import { bodyTokensOf } from '@/lib/generate/render';
import type { GenerateInput, GeneratedOutput, SourcePage } from '@/lib/generate/types';
import { validateLlmsTxt } from '@/lib/generate/validate';

const ORIGIN = 'https://docs.acorn.test';
const NOW = new Date('2026-08-14T23:30:00Z');

/** A stored HTML page at `path`; Markdown links to `links` (paths) so reading order follows them. */
function page(path: string, title: string, extra: Partial<SourcePage> & { links?: string[] } = {}): SourcePage {
  const { links = [], ...rest } = extra;
  const url = `${ORIGIN}${path}`;
  const linkList = links.map((to) => `- [${to}](${ORIGIN}${to})`).join('\n');
  return {
    key: url,
    url,
    finalUrl: url,
    title,
    markdown: `# ${title}\n\nAbout ${title}.\n\n${linkList}`.trim(),
    depth: path === '/' || path === '/index.html' ? 0 : path.split('/').length - 2,
    format: 'html',
    state: 'stored',
    ...rest,
  };
}

/**
 * The reference parser (AnswerDotAI/llms-txt, llms_txt/miniparse.py) ported line for line: it
 * splits on `##`, reads each non-empty section line with `link_pat` and fails (raises) on any
 * line that is not a link. Our own parser is lenient, so this is the stricter check.
 */
function referenceParse(text: string): { title: string; summary?: string; info: string; sections: Record<string, Array<{ title: string; url: string; desc?: string }>> } {
  const [start = '', ...rest] = text.split(/^##\s*(.*?)$/m);
  const sections: Record<string, Array<{ title: string; url: string; desc?: string }>> = {};
  for (let i = 0; i < rest.length; i += 2) {
    const body = (rest[i + 1] ?? '').trim();
    sections[rest[i] ?? ''] = body.split(/\n+/).filter((line) => line.trim()).map((line) => {
      const match = /-\s*\[(?<title>[^\]]+)\]\((?<url>[^)]+)\)(?::\s*(?<desc>.*))?/.exec(line);
      if (!match?.groups) throw new Error(`reference parser fails on: ${line}`);
      return { title: match.groups.title ?? '', url: match.groups.url ?? '', desc: match.groups.desc };
    });
  }
  const head = /^#\s*(?<title>.+?$)\n+(?:^>\s*(?<summary>.+?$)$)?\n+(?<info>.*)/ms.exec(start.trim());
  if (!head?.groups) throw new Error('reference parser fails on the head');
  return { title: head.groups.title ?? '', summary: head.groups.summary, info: head.groups.info ?? '', sections };
}

/** Generates and checks the llms.txt the way every consumer would read it. */
function generate(input: Partial<GenerateInput> & { pages: SourcePage[] }): GeneratedOutput {
  const out = generateOutputs({ startUrl: `${ORIGIN}/index.html`, generatedAt: NOW, ...input });
  const parsed = parseLlmsTxt(out.llmsTxt, `${ORIGIN}/llms.txt`);
  expect(parsed.warnings).toEqual([]);
  expect(validateLlmsTxt(out.llmsTxt, `${ORIGIN}/llms.txt`).filter((f) => f.severity !== 'info')).toEqual([]);
  const reference = referenceParse(out.llmsTxt);
  expect(reference.title).toBe(out.title);
  expect(Object.keys(reference.sections)).toEqual(out.sections.map((s) => s.name));
  // Targets are written with ( and ) percent-encoded: the reference parser ends a URL at ")".
  const written = (url: string) => url.replace(/\(/g, '%28').replace(/\)/g, '%29');
  expect(Object.values(reference.sections).flat().map((l) => l.url)).toEqual(out.sections.flatMap((s) => s.entries.map((e) => written(e.url))));
  expect(out.llmsTxt).not.toMatch(/^###/m);
  expect(out.llmsTxt).not.toMatch(/\): *$/m);
  return out;
}

const names = (out: GeneratedOutput) => out.sections.map((s) => s.name);
const ids = (out: GeneratedOutput) => out.sections.map((s) => s.id);
const titlesIn = (out: GeneratedOutput, id: string) => out.sections.find((s) => s.id === id)?.entries.map((e) => e.title);
/** The H2 lines of llms-full.txt outside code fences: one per page. */
function fullHeadings(out: GeneratedOutput): string[] {
  let fence = '';
  const headings: string[] = [];
  const [title, ...lines] = out.llmsFullTxt.split('\n');
  expect(title).toBe(`# ${out.title}`);
  for (const line of lines) {
    const marker = /^(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && line.trim() === marker) fence = '';
    } else if (marker) {
      fence = marker;
    } else if (line.startsWith('## ')) {
      headings.push(line.slice(3));
    } else {
      expect(line).not.toMatch(/^#{1,2} /);
    }
  }
  expect(fence).toBe('');
  return headings;
}

describe('the llms.txt head', () => {
  it('is the H1, one blockquote line and the details paragraph, in that order', () => {
    const out = generate({
      pages: [
        page('/index.html', 'Acorn DB', { description: 'Acorn is an embedded\ndatabase   for tiny devices.', links: ['/guide/a.html'] }),
        page('/guide/a.html', 'A — Acorn DB'),
      ],
    });
    expect(out.llmsTxt.split('\n').slice(0, 5)).toEqual([
      '# Acorn DB',
      '',
      '> Acorn is an embedded database for tiny devices.',
      '',
      `Generated by llms.txt Scout from 2 pages of ${ORIGIN} on 2026-08-14.`,
    ]);
    expect(out.summary).toBe('Acorn is an embedded database for tiny devices.');
    expect(referenceParse(out.llmsTxt).summary).toBe(out.summary);
  });

  it('takes the summary from the first page with a description when the root has none, cut on a word', () => {
    const long = `${'Acorn stores rows in flash pages and keeps an index in memory for fast lookups '.repeat(4)}end.`;
    const out = generate({ pages: [page('/index.html', 'Home', { links: ['/b.html'] }), page('/b.html', 'B', { description: long })] });
    const summary = out.summary ?? '';
    expect(summary.length).toBeLessThanOrEqual(200);
    expect(summary.length).toBeGreaterThan(150);
    // A prefix of the description, cut where a word ends.
    expect(summary.endsWith('…')).toBe(true);
    expect(long.startsWith(summary.slice(0, -1))).toBe(true);
    expect(long[summary.length - 1]).toBe(' ');
  });

  it('leaves the blockquote out when no page has a description', () => {
    const out = generate({ pages: [page('/index.html', 'Home')] });
    expect(out.summary).toBeUndefined();
    expect(out.llmsTxt).not.toMatch(/^>/m);
  });
});

describe('the site name (H1)', () => {
  it('is the title suffix most pages share, whatever the separator', () => {
    const pages = [
      page('/index.html', 'Acorn DB'),
      page('/a.html', 'Install — Acorn DB'),
      page('/b.html', 'Query | Acorn DB'),
      page('/c.html', 'Tune - Acorn DB'),
      page('/d.html', 'Replication · Acorn DB'),
      page('/e.html', 'Errors – Reference'),
    ];
    expect(generate({ pages }).title).toBe('Acorn DB');
  });

  it('falls back to the root page title when no suffix covers half the pages', () => {
    const pages = [page('/index.html', 'Welcome to Acorn'), page('/a.html', 'Install - Linux'), page('/b.html', 'Query'), page('/c.html', 'Tune')];
    expect(generate({ pages }).title).toBe('Welcome to Acorn');
    // Two pages sharing a suffix are not enough when they are under half of the site.
    const few = [page('/index.html', 'Acorn'), page('/a.html', 'A — Foo'), page('/b.html', 'B — Foo'), page('/c.html', 'C'), page('/d.html', 'D'), page('/e.html', 'E')];
    expect(generate({ pages: few }).title).toBe('Acorn');
    expect(generate({ pages: few.slice(0, 4) }).title).toBe('Foo');
  });

  it('prefers what the home page calls the site: its short first heading over a generic title', () => {
    // The converter strips " — Acorn DB" from titles when the page declares og:site_name, so a
    // home page is stored as "Home"; its H1 still says the name. Found even when the crawl starts deeper.
    const home = { ...page('/', 'Home'), markdown: '# Acorn DB\n\nA tiny database.' };
    const guide = page('/guide/', 'Guide Overview');
    expect(generate({ pages: [home, guide, page('/guide/a.html', 'A')], startUrl: `${ORIGIN}/guide/` }).title).toBe('Acorn DB');
    // A slogan is no name: the title is used instead.
    const slogan = { ...page('/', 'Acorn DB'), markdown: '# Build faster apps with the tiniest database around\n\nText.' };
    expect(generate({ pages: [slogan, page('/a.html', 'A')] }).title).toBe('Acorn DB');
    // Without a home page, the start page speaks for the site.
    expect(generate({ pages: [guide, page('/guide/a.html', 'A')], startUrl: `${ORIGIN}/guide/` }).title).toBe('Guide Overview');
  });

  it('falls back to the host, never a URL, nor a generic page name', () => {
    expect(generate({ pages: [page('/index.html', 'Welcome'), page('/a.html', 'Install')] }).title).toBe('docs.acorn.test');
    const pages = [page('/index.html', 'https://docs.acorn.test/'), page('/a.html', 'Install')];
    const out = generate({ pages });
    expect(out.title).toBe('docs.acorn.test');
    // Pages at the top are then grouped under a generic name, not under the host.
    expect(names(out)).toEqual(['Docs']);
  });
});

describe('sections from the URL structure', () => {
  const site = [
    page('/index.html', 'Home', { links: ['/getting-started/quick.html', '/guide/index.html', '/api/client.html', '/cli/run.html', '/faq.html'] }),
    page('/guide/index.html', 'Welcome', { links: ['/guide/install.html'] }),
    page('/guide/install.html', 'Install'),
    page('/api/client.html', 'Client'),
    page('/api/server.html', 'Server'),
    page('/getting-started/quick.html', 'Quick start'),
    page('/cli/run.html', 'acorn run'),
    page('/faq.html', 'FAQ'),
  ];

  it('groups by the first directory, in the order the site links them, names title-cased', () => {
    const out = generate({ pages: site });
    expect(ids(out)).toEqual(['path:/', 'path:/getting-started/', 'path:/guide/', 'path:/api/', 'path:/cli/']);
    // "Home" names no site: the host does, and the top-level group is called "Docs".
    expect(out.title).toBe('docs.acorn.test');
    expect(names(out)).toEqual(['Docs', 'Getting Started', 'Guide', 'API', 'CLI']);
    expect(titlesIn(out, 'path:/')).toEqual(['Home', 'FAQ']);
    // /api/server.html is linked from nowhere: it comes after the pages the site links to.
    expect(titlesIn(out, 'path:/api/')).toEqual(['Client', 'Server']);
  });

  it('orders by depth, then URL, when pages do not link each other', () => {
    const unlinked = site.map((p) => ({ ...p, markdown: `# ${p.title}` }));
    expect(ids(generate({ pages: unlinked }))).toEqual(['path:/', 'path:/api/', 'path:/cli/', 'path:/getting-started/', 'path:/guide/']);
  });

  it('names a section after its index page when that title names the directory', () => {
    const pages = [
      page('/index.html', 'Home', { links: ['/tutorial/index.html', '/howto/index.html'] }),
      page('/tutorial/index.html', 'The Acorn Tutorial'),
      page('/tutorial/b.html', 'B'),
      page('/howto/index.html', 'Acorn HOWTOs'),
    ];
    expect(names(generate({ pages }))).toEqual(['Docs', 'The Acorn Tutorial', 'Acorn HOWTOs']);
  });

  it('groups below the start page’s directory', () => {
    const pages = [
      page('/docs/index.html', 'Docs home', { links: ['/docs/guide/a.html', '/docs/ref/b.html'] }),
      page('/docs/guide/a.html', 'A'),
      page('/docs/ref/b.html', 'B'),
    ];
    const out = generate({ pages, startUrl: `${ORIGIN}/docs/index.html` });
    expect(ids(out)).toEqual(['path:/docs/', 'path:/docs/guide/', 'path:/docs/ref/']);
    // The root group is "Docs", not the site's name again under its H1.
    expect(names(out)).toEqual(['Docs', 'Guide', 'Ref']);
  });

  it('sections from the top when the crawl started deeper but reached the whole site (the demo site)', () => {
    const pages = [
      page('/guide/', 'Guide Overview', { links: ['/guide/install.html', '/api/index.html', '/tutorials/todo.html', '/tutorials/index.html', '/'] }),
      page('/guide/install.html', 'Installation'),
      page('/api/index.html', 'API Overview'),
      page('/api/db.html', 'Database API'),
      page('/tutorials/todo.html', 'Build a Todo App'),
      page('/tutorials/index.html', 'Tutorials'),
      { ...page('/', 'Home'), markdown: '# Acorn DB' },
    ];
    const out = generate({ pages, startUrl: `${ORIGIN}/guide/` });
    expect(out.title).toBe('Acorn DB');
    // The root group (the home page) leads; each directory's index page leads its section.
    expect(out.sections.map((s) => [s.id, s.name, s.entries.map((e) => e.title)])).toEqual([
      ['path:/', 'Docs', ['Home']],
      ['path:/guide/', 'Guide Overview', ['Guide Overview', 'Installation']],
      ['path:/api/', 'API Overview', ['API Overview', 'Database API']],
      ['path:/tutorials/', 'Tutorials', ['Tutorials', 'Build a Todo App']],
    ]);
  });

  it('keeps a crawl confined to /docs/ sectioned from /docs/, even with the home page in it', () => {
    const pages = [
      page('/docs/', 'Acorn docs', { links: ['/docs/guide/a.html', '/docs/v2/b.html', '/'] }),
      page('/docs/guide/a.html', 'A'),
      page('/docs/guide/c.html', 'C'),
      page('/docs/v2/b.html', 'B'),
      page('/', 'Acorn'),
    ];
    const out = generate({ pages, startUrl: `${ORIGIN}/docs/guide/a.html` });
    expect(out.sections.map((s) => [s.id, s.entries.map((e) => e.title)])).toEqual([
      ['path:/docs/', ['Acorn', 'Acorn docs']],
      ['path:/docs/guide/', ['A', 'C']],
      ['optional', ['B']],
    ]);
  });

  /** Ten folders, every other one holding a single page; `file` names each folder's first page. */
  const tenFolders = (file: (dir: string) => string = () => 'one') =>
    ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa'].flatMap((dir, i) => [
      page(`/${dir}/${file(dir)}.html`, `${dir} one`),
      ...(i % 2 === 0 ? [page(`/${dir}/two.html`, `${dir} two`)] : []),
    ]);

  it('merges single-page sections into “More” when there are more than eight', () => {
    const pages = [page('/index.html', 'Home'), page('/solo.html', 'Solo'), ...tenFolders()];
    const out = generate({ pages });
    expect(names(out)).toEqual(['Docs', 'Alpha', 'Epsilon', 'Eta', 'Gamma', 'Iota', 'More']);
    expect(titlesIn(out, 'more')).toEqual(['beta one', 'delta one', 'kappa one', 'theta one', 'zeta one']);
    expect(titlesIn(out, 'path:/')).toEqual(['Home', 'Solo']);
    // Eight sections or fewer stay as they are, single pages included.
    expect(names(generate({ pages: pages.filter((p) => !/kappa|theta|zeta|iota/.test(p.finalUrl)) }))).toContain('Beta');
  });

  it('keeps a single-page section the start page names, where the rest merge into “More”', () => {
    // The start page lists the one-page folder /beta/ as one of the site's parts.
    const home = { ...page('/index.html', 'Home'), markdown: '# Acorn\n\n- [Installing Acorn](/beta/index.html)\n' };
    const pages = [home, ...tenFolders((dir) => (dir === 'beta' ? 'index' : 'one'))];
    const out = generate({ pages });
    expect(names(out)).toContain('Installing Acorn');
    expect(titlesIn(out, 'more')).toEqual(['delta one', 'kappa one', 'theta one', 'zeta one']);
  });

  it('names the root group after the base folder’s index when the crawl started above it (Javadoc)', () => {
    const pages = [
      page('/index.html', 'Overview', { links: ['/org/acorn/package-summary.html', '/org/acorn/nodes/package-summary.html'] }),
      page('/org/acorn/package-summary.html', 'org.acorn'),
      page('/org/acorn/Acorn.html', 'Acorn'),
      page('/org/acorn/Connection.html', 'Connection'),
      page('/org/acorn/nodes/package-summary.html', 'org.acorn.nodes'),
      page('/org/acorn/nodes/Node.html', 'Node'),
      page('/org/acorn/nodes/Element.html', 'Element'),
      page('/org/acorn/nodes/Document.html', 'Document'),
      page('/org/acorn/nodes/Comment.html', 'Comment'),
      page('/org/acorn/nodes/Attribute.html', 'Attribute'),
      page('/org/acorn/nodes/TextNode.html', 'TextNode'),
    ];
    const out = generate({ pages, startUrl: `${ORIGIN}/index.html` });
    expect(names(out)).toEqual(['org.acorn', 'org.acorn.nodes']);
    expect(titlesIn(out, 'path:/org/acorn/')).toEqual(['Overview', 'org.acorn', 'Acorn', 'Connection']);
  });
});

describe('sections from the site navigation', () => {
  const pages = [
    page('/index.html', 'Home'),
    page('/intro.html', 'Introduction'),
    page('/install.html', 'Installing'),
    page('/internals/storage.html', 'Storage engine'),
    page('/internals/locks.html', 'Locks'),
    page('/tuning.html', 'Tuning'),
    page('/misc/colophon.html', 'Colophon'),
  ];
  const nav = [
    { title: 'Home', url: `${ORIGIN}/`, depth: 0 },
    { title: 'Basics', url: `${ORIGIN}/intro.html`, depth: 0 },
    { title: 'Installing', url: `${ORIGIN}/install.html`, depth: 1 },
    { title: 'Advanced', url: `${ORIGIN}/tuning.html`, depth: 0 },
    { title: 'Storage engine', url: `${ORIGIN}/internals/storage.html#top`, depth: 1 },
  ];

  it('makes top-level entries with children sections, in navigation order, with their subtrees', () => {
    const out = generate({ pages, nav });
    // The tree starts with a leaf (Home), so the site's own group comes first.
    expect(ids(out)).toEqual(['nav:Docs', 'nav:Basics', 'nav:Advanced']);
    expect(titlesIn(out, 'nav:Basics')).toEqual(['Introduction', 'Installing']);
    // Locks is not in the tree: it joins the section of its directory neighbour, after the listed pages.
    expect(titlesIn(out, 'nav:Advanced')).toEqual(['Tuning', 'Storage engine', 'Locks']);
    // Leaves at the top and pages with no neighbour form the site's own group.
    expect(titlesIn(out, 'nav:Docs')).toEqual(['Home', 'Colophon']);
  });

  it('ignores a navigation that lists under half of the pages (Python’s “other resources” list)', () => {
    const external = [
      { title: 'PEP Index', url: 'https://peps.python.org/', depth: 0 },
      { title: 'Beginner’s Guide', url: 'https://wiki.python.org/moin/BeginnersGuide', depth: 1 },
      { title: 'Basics', url: `${ORIGIN}/intro.html`, depth: 0 },
      { title: 'Installing', url: `${ORIGIN}/install.html`, depth: 1 },
    ];
    expect(ids(generate({ pages, nav: external }))).toEqual(['path:/', 'path:/internals/', 'path:/misc/']);
  });
});

describe('the Optional section', () => {
  it('collects history, legal, index, search, old-version and about pages, last', () => {
    const secondary = [
      ['/changelog.html', 'Changelog'], ['/blog/2024/launch.html', 'We launched'], ['/legal/privacy.html', 'Privacy'],
      ['/v1/guide/intro.html', 'Intro (old)'], ['/1.2/install.html', 'Install (1.2)'], ['/archive/x.html', 'X'],
      ['/genindex-A.html', 'Index'], ['/genindex.html', 'Index'], ['/search.html', 'Search'], ['/py-modindex.html', 'Module Index'],
      ['/about.html', 'About these documents'], ['/license.html', 'History and License'], ['/copyright.html', 'Copyright'],
      ['/updates.html', 'Release notes for 2.0'], ['/terms/', 'Terms of Service'],
    ] as const;
    // A file name is no evidence: bugs.html is a page about reporting bugs.
    const main = [['/index.html', 'Home'], ['/guide/search-queries.html', 'Search queries'], ['/guide/about-rows.html', 'About rows'], ['/api/license-key.html', 'License keys'], ['/bugs.html', 'Dealing with Bugs']] as const;
    const out = generate({ pages: [...main, ...secondary].map(([path, title]) => page(path, title)) });
    const optional = out.sections.at(-1);
    expect(optional?.id).toBe('optional');
    expect(optional?.name).toBe('Optional');
    expect(optional?.entries.map((e) => e.pageUrl).sort()).toEqual(secondary.map(([path]) => `${ORIGIN}${path}`).sort());
    expect(out.sections.slice(0, -1).flatMap((s) => s.entries.map((e) => e.title)).sort()).toEqual(['About rows', 'Dealing with Bugs', 'Home', 'License keys', 'Search queries']);
    expect(parseLlmsTxt(out.llmsTxt, `${ORIGIN}/llms.txt`).sections.at(-1)).toMatchObject({ name: 'Optional', optional: true });
  });

  it('does not push a whole site that lives under /v2/ or /blog/ into Optional', () => {
    const pages = [page('/v2/index.html', 'Home'), page('/v2/guide/a.html', 'A'), page('/v2/changelog.html', 'Changelog')];
    const out = generate({ pages, startUrl: `${ORIGIN}/v2/index.html` });
    expect(out.sections.map((s) => [s.id, s.entries.length])).toEqual([['path:/v2/', 1], ['path:/v2/guide/', 1], ['optional', 1]]);
  });

  it('moves a folder whose index page calls it legacy to Optional, but not a legacy site as a whole', () => {
    const pages = [
      page('/index.html', 'Acorn'),
      page('/install/index.html', 'Installing Acorn'),
      page('/install/pip.html', 'With pip'),
      page('/setup-legacy/index.html', 'Installing Acorn (Legacy version)'),
      page('/setup-legacy/build.html', 'Building from source'),
      page('/setup-legacy/configure.html', 'Configuration'),
    ];
    const out = generate({ pages });
    expect((titlesIn(out, 'optional') ?? []).sort()).toEqual(['Building from source', 'Configuration', 'Installing Acorn (Legacy version)']);
    // At the base folder the index is the site's home: a site that calls itself legacy keeps its sections.
    const legacy = [page('/index.html', 'Acorn (Legacy version)'), page('/guide/index.html', 'Guide'), page('/guide/a.html', 'A')];
    expect(generate({ pages: legacy }).sections.map((s) => s.id)).not.toContain('optional');
  });
});

describe('entries', () => {
  it('drops a description three or more pages share, keeps one two pages share, never leaves a bare colon', () => {
    const boiler = 'The official documentation of Acorn.';
    const pair = 'Two pages say this.';
    const pages = [
      page('/index.html', 'Home', { description: boiler }),
      page('/a.html', 'A', { description: boiler }),
      page('/b.html', 'B', { description: `  ${boiler}\n` }),
      page('/c.html', 'C', { description: pair }),
      page('/d.html', 'D', { description: pair }),
      page('/e.html', 'E', { description: 'E' }),
    ];
    const out = generate({ pages });
    expect(out.sections[0]?.entries.map((e) => e.description)).toEqual([undefined, undefined, undefined, pair, pair, undefined]);
    expect(out.llmsTxt).toContain(`- [A](${ORIGIN}/a.html)\n`);
    expect(out.llmsTxt).toContain(`- [C](${ORIGIN}/c.html): ${pair}\n`);
  });

  it('links the Markdown twin when the content came from it', () => {
    const pages = [
      page('/index.html', 'Home'),
      page('/a.html', 'A', { format: 'markdown', twinUrl: `${ORIGIN}/a.md` }),
      page('/b.html', 'B', { format: 'html', twinUrl: `${ORIGIN}/b.md` }),
      page('/c.md', 'C', { format: 'markdown' }),
    ];
    const out = generate({ pages });
    expect(out.sections[0]?.entries.map((e) => [e.url, e.pageUrl])).toEqual([
      [`${ORIGIN}/index.html`, `${ORIGIN}/index.html`],
      [`${ORIGIN}/a.md`, `${ORIGIN}/a.html`],
      [`${ORIGIN}/b.html`, `${ORIGIN}/b.html`],
      [`${ORIGIN}/c.md`, `${ORIGIN}/c.md`],
    ]);
  });

  it('makes titles and descriptions single-line and safe for both parsers', () => {
    const pages = [
      page('/index.html', 'Home'),
      page('/a.html', 'list[int]\nand ]( friends', { description: 'Line one\nline two' }),
      page('/b(1).html', 'Ends in \\'),
    ];
    const out = generate({ pages });
    expect(out.llmsTxt).toContain(`- [list(int) and )( friends](${ORIGIN}/a.html): Line one line two\n`);
    // The title's backslash is escaped; what follows the link (a description or none) is not this test's concern.
    expect(out.llmsTxt).toContain(`- [Ends in \\\\](${ORIGIN}/b%281%29.html)`);
  });

  it('uses a page’s own heading when several pages share its title', () => {
    const pages = [page('/index.html', 'Home'), page('/genindex-A.html', 'Index'), page('/genindex-B.html', 'Index')];
    pages[1] = { ...pages[1] as SourcePage, markdown: '# Index – A\n\n- [abs()](x)' };
    pages[2] = { ...pages[2] as SourcePage, markdown: '# Index – B' };
    expect(generate({ pages }).sections.flatMap((s) => s.entries.map((e) => e.title))).toEqual(['Home', 'Index – A', 'Index – B']);
  });

  it('tells apart pages that share a title by their index letter, else their path; an index letter alone is no title', () => {
    // Doxygen's shape: every index page is titled "Globals"; some open with their first letter, some with nothing.
    const pages = [
      page('/index.html', 'Home'),
      { ...page('/globals.html', 'Globals'), markdown: 'Here is a list of all functions with links to the files they belong to:\n\n# \\- a -\n\n- array_list_add : arraylist.h' },
      { ...page('/globals_j.html', 'Globals'), markdown: 'Here is a list of all functions with links to the files they belong to:\n\n# \\- j -\n\n- json_c_version : json_c_version.h' },
      { ...page('/globals_func.html', 'Globals'), markdown: '# \\- a -\n\n- array_list_new : arraylist.h' },
      { ...page('/globals_enum.html', 'Globals'), markdown: '- json_type : json_types.h' },
      { ...page('/globals_vars.html', 'Globals'), markdown: '- json_number_chars : json_object.h' },
      { ...page('/guide/overview/index.html', 'Overview'), markdown: 'How to scan.' },
      { ...page('/api/overview/index.html', 'Overview'), markdown: 'What the API holds.' },
      { ...page('/letters.html', '- b -'), markdown: 'The b words.' },
    ];
    const titles = generate({ pages }).sections.flatMap((s) => s.entries.map((e) => e.title));
    expect([...titles].sort()).toEqual(['Globals – a', 'Globals – j', 'Globals enum', 'Globals func', 'Globals vars', 'Home', 'Letters', 'Overview – Api', 'Overview – Guide'].sort());
  });

  it('leaves out duplicates, removed pages and a second page behind the same link', () => {
    const pages = [
      page('/index.html', 'Home'),
      page('/a.html', 'A'),
      page('/dup.html', 'Dup', { state: 'duplicate' }),
      page('/gone.html', 'Gone', { state: 'removed' }),
      { ...page('/old-a', 'A again'), finalUrl: `${ORIGIN}/a.html` },
    ];
    const out = generate({ pages });
    expect(out.sections.flatMap((s) => s.entries.map((e) => e.title))).toEqual(['Home', 'A']);
    expect(out.details).toContain('from 2 pages');
  });

  it('counts o200k tokens per entry (what the page adds to llms-full.txt), per section and per file', () => {
    const pages = [page('/index.html', 'Home'), { ...page('/a.html', 'A'), markdown: 'hello world <|endoftext|>' }, { ...page('/b.html', 'B'), fullTokens: bodyTokensOf('B', '# B\n\nAbout B.', 1234) }];
    const out = generate({ pages });
    const [home, a, b] = out.sections[0]?.entries ?? [];
    const plain = (t: string) => encode(t, { disallowedSpecial: new Set() }).length;
    expect(a?.tokens).toBe(plain('hello world <|endoftext|>\n\n'));
    expect(home?.tokens).toBeGreaterThan(0);
    expect(b?.tokens).toBe(1234); // counted before under this title, kept on the page by the caller
    expect(out.fullTokens.get(pages[1]?.key ?? '')).toEqual(bodyTokensOf('A', 'hello world <|endoftext|>', a?.tokens ?? -1));
    expect(out.sections[0]?.tokens).toBe((home?.tokens ?? 0) + (a?.tokens ?? 0) + 1234);
    expect(out.tokens.llmsTxt).toBe(encode(out.llmsTxt).length);
    const real = generate({ pages: pages.map((p) => ({ ...p, fullTokens: undefined })) });
    expect(real.tokens.llmsFullTxt).toBe(plain(real.llmsFullTxt));
  });

  it('is deterministic: the same pages in another order give the same files', () => {
    const pages = [page('/index.html', 'Home', { links: ['/b/x.html'] }), page('/a/x.html', 'AX'), page('/b/x.html', 'BX'), page('/a/y.html', 'AY'), page('/news.html', 'News')];
    const one = generate({ pages });
    const two = generate({ pages: [...pages].reverse() });
    expect(two.llmsTxt).toBe(one.llmsTxt);
    expect(two.llmsFullTxt).toBe(one.llmsFullTxt);
  });
});

describe('curation', () => {
  const pages = [
    page('/index.html', 'Home', { links: ['/guide/a.html', '/api/b.html'] }),
    page('/guide/a.html', 'Guide A'),
    page('/guide/c.html', 'Guide C'),
    page('/api/b.html', 'API B'),
    page('/changelog.html', 'Changelog'),
  ];

  it('reorders, renames, moves to Optional and excludes, in both files', () => {
    const out = generate({
      pages,
      curation: {
        sectionOrder: ['path:/api/', 'unknown', 'optional', 'path:/'],
        renames: { 'path:/api/': 'Reference', optional: 'Ignored' },
        optional: [`${ORIGIN}/guide/c.html`],
        excluded: [`${ORIGIN}/guide/a.html`],
      },
    });
    expect(out.sections.map((s) => [s.id, s.name])).toEqual([['path:/api/', 'Reference'], ['path:/', 'Docs'], ['optional', 'Optional']]);
    expect(titlesIn(out, 'optional')).toEqual(['Changelog', 'Guide C']);
    expect(out.llmsTxt).toMatch(/## Reference\n\n- \[API B\]/);
    expect(out.llmsTxt).not.toContain('Guide A');
    expect(out.llmsFullTxt).not.toContain('Guide A');
    expect(fullHeadings(out)).toEqual(['API B', 'Home', 'Changelog', 'Guide C']);
  });

  it('keeps section names unique and leaves “Optional” to the Optional section', () => {
    expect(names(generate({ pages, curation: { renames: { 'path:/api/': 'Docs' } } }))).toEqual(['Docs', 'Guide', 'Docs (2)', 'Optional']);
    // Not through generate(): the validator rightly warns that "optional (2)" looks like a misspelt Optional.
    const out = generateOutputs({ startUrl: `${ORIGIN}/index.html`, generatedAt: NOW, pages, curation: { renames: { 'path:/guide/': 'optional' } } });
    expect(names(out)).toEqual(['Docs', 'optional (2)', 'API', 'Optional']);
    expect(parseLlmsTxt(out.llmsTxt, `${ORIGIN}/llms.txt`).sections.filter((s) => s.optional).map((s) => s.name)).toEqual(['Optional']);
  });

  it('leaves Optional pages out of llms-full.txt when asked', () => {
    const out = generate({ pages, curation: { fullWithoutOptional: true } });
    expect(fullHeadings(out)).toEqual(['Home', 'Guide A', 'Guide C', 'API B']);
    expect(out.llmsTxt).toContain('[Changelog]');
  });
});

describe('llms-full.txt', () => {
  const body = [
    '# Guide A', '', 'Intro.', '', '## Setup', '', '```sh', '# not a heading', '## nor this', '```', '',
    '### Deep', '', 'Setext', '======', '', 'Sub', '---', '', '~~~', '# still code', '~~~', '', '```js', 'unclosed();',
  ].join('\n');
  const pages = [
    page('/index.html', 'Acorn', { description: 'Acorn stores your data in trees.', links: ['/guide/a.html'] }),
    { ...page('/guide/a.html', 'Guide A'), markdown: body },
    { ...page('/guide/b.html', 'Guide B'), markdown: '### Already low\n\nText.' },
    page('/changelog.html', 'Changelog'),
  ];

  it('has the same head, then every page in llms.txt order under ## title and a Source line', () => {
    const out = generate({ pages });
    expect(out.llmsFullTxt.startsWith('# Acorn\n\n> Acorn stores your data in trees.\n\n## Acorn\nSource: https://docs.acorn.test/index.html\n\n')).toBe(true);
    expect(fullHeadings(out)).toEqual(out.sections.flatMap((s) => s.entries.map((e) => e.title)));
    expect(fullHeadings(out).at(-1)).toBe('Changelog');
    expect(out.llmsFullTxt).toContain(`## Guide B\nSource: ${ORIGIN}/guide/b.html\n\n### Already low\n`);
  });

  it('demotes page headings below H2, keeps their order and leaves code alone', () => {
    const out = generate({ pages });
    const section = out.llmsFullTxt.slice(out.llmsFullTxt.indexOf('## Guide A'), out.llmsFullTxt.indexOf('## Guide B'));
    expect(section).toBe([
      '## Guide A', `Source: ${ORIGIN}/guide/a.html`, '',
      // The page's own title heading repeats the ## line, so it goes; the rest move down two levels.
      'Intro.', '', '#### Setup', '', '```sh', '# not a heading', '## nor this', '```', '',
      '##### Deep', '', '### Setext', '', '#### Sub', '', '~~~', '# still code', '~~~', '', '```js', 'unclosed();', '```', '', '',
    ].join('\n'));
  });
});

describe('llms-full.txt token count without a second pass', () => {
  const plain = (text: string) => encode(text, { disallowedSpecial: new Set() }).length;
  // Bodies whose ends and starts meet the tokenizer's pre-token rules in every way a docs page can.
  const bodies = [
    'Intro paragraph.\n\n```js\nconst x = 1;\n```',
    'Ends with punctuation!!',
    '    indented code first\n\nthen text',
    '',
    '日本語のページ。終わり。',
    'Trailing spaces   ',
    '> quote\n\n- list item\n- another /',
    '<|endoftext|> quoted special token',
    '123 numbers 4567',
  ];
  const pages = bodies.map((markdown, i) => page(`/p${i}.html`, `Page ${i}`, { markdown }));

  it('equals a count of the whole file, whatever the pages start and end with', () => {
    const out = generateOutputs({ startUrl: 'https://docs.example.test/', pages, generatedAt: new Date(0) });
    expect(out.tokens.llmsFullTxt).toBe(plain(out.llmsFullTxt));
    // Every page but the last got a reusable body count.
    expect(out.fullTokens.size).toBeGreaterThan(4);
  });

  it('reuses a page’s body count under the same title and recounts under a new one', () => {
    const first = generateOutputs({ startUrl: 'https://docs.example.test/', pages, generatedAt: new Date(0) });
    const key = pages[1]?.key ?? '';
    const cached = first.fullTokens.get(key);
    expect(cached?.title).toBe('Page 1');
    // A planted count shows it is used without re-tokenizing...
    const planted = pages.map((p) => (p.key === key ? { ...p, fullTokens: bodyTokensOf('Page 1', p.markdown, (cached?.count ?? 0) + 1000) } : p));
    expect(generateOutputs({ startUrl: 'https://docs.example.test/', pages: planted, generatedAt: new Date(0) }).tokens.llmsFullTxt).toBe(first.tokens.llmsFullTxt + 1000);
    // ...and ignored once the title (and so the body) is different.
    const renamed = pages.map((p) => (p.key === key ? { ...p, fullTokens: bodyTokensOf('Old title', p.markdown, 5) } : p));
    expect(generateOutputs({ startUrl: 'https://docs.example.test/', pages: renamed, generatedAt: new Date(0) }).tokens.llmsFullTxt).toBe(first.tokens.llmsFullTxt);
    // ...or once the Markdown it was counted on is different (a count from before chrome was
    // trimmed), even of the same length; and a count kept without a hash (an older release's).
    const edited = pages.map((p) => (p.key === key ? { ...p, fullTokens: bodyTokensOf('Page 1', `${p.markdown.slice(0, -1)}~`, 5) } : p));
    expect(generateOutputs({ startUrl: 'https://docs.example.test/', pages: edited, generatedAt: new Date(0) }).tokens.llmsFullTxt).toBe(first.tokens.llmsFullTxt);
    const unhashed = pages.map((p) => (p.key === key ? { ...p, fullTokens: { title: 'Page 1', count: 5, chars: p.markdown.length } } : p));
    expect(generateOutputs({ startUrl: 'https://docs.example.test/', pages: unhashed, generatedAt: new Date(0) }).tokens.llmsFullTxt).toBe(first.tokens.llmsFullTxt);
  });
});
