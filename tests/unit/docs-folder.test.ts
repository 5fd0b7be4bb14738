/**
 * The docs folder for agents (lib/agents/, docs/docs-folder.md): made from a real crawl of the demo
 * site on loopback, it holds exactly the pages the generated llms.txt lists, each with its front
 * matter, and a manifest that says where each is; the reader takes it back and refuses a broken
 * folder with the reason in words. The Markdown cut at headings (search chunks, read_page sections)
 * ignores headings inside code.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentConfigs } from '@/lib/agents/agent-config';
import { buildDocsFolder, DOCS_FOLDER_FORMAT, manifestText, type DocsManifest } from '@/lib/agents/docs-folder';
import { DocsLibrary } from '@/lib/agents/docs-library';
import { docsFolderFromDb } from '@/lib/agents/from-db';
import { findSection, markdownSections, sectionText } from '@/lib/agents/markdown-sections';
import { DocsFolderError, readDocsFolder } from '@/lib/agents/read-folder';
import { chunksOf, DocsIndex } from '@/lib/agents/search-index';
import { createDb, type ScoutDb } from '@/lib/store/db';
import { parseLlmsTxt } from '@/lib/discovery/parse-llms-txt';
import { generateForSite, saveCuration } from '@/lib/generate/run-generate';
import { crawlSite } from '@/lib/headless/crawl-site';
import { writeFilesInside } from '@/lib/headless/write-out';
import { pagesOf, latestCrawlWithPages } from '@/lib/store/queries';
import { loopbackFetch, startFixtureServer, type FixtureServer } from '../fixtures/server';

const NOW = new Date('2026-11-25T12:00:00Z');

describe('the docs folder from a crawl', () => {
  let server: FixtureServer;
  let db: ScoutDb;
  let tmp: string;
  let origin: string;
  beforeAll(async () => {
    server = await startFixtureServer({ 'docs.scout-demo.test': { dir: 'tests/fixtures/sites/demo-docs' } });
    db = createDb(`docs-folder-${crypto.randomUUID()}`);
    tmp = await mkdtemp(join(tmpdir(), 'scout-docs-folder-'));
    const { job, generated } = await crawlSite({ db, startUrl: server.url('docs.scout-demo.test', '/'), fetch: loopbackFetch(), now: NOW, output: {} });
    if (!generated) throw new Error('the demo crawl generated nothing');
    origin = job.origin;
  }, 60_000);
  afterAll(async () => {
    await server.close();
    await db.delete();
    await rm(tmp, { recursive: true, force: true });
  });

  const linksOf = (text: string) => parseLlmsTxt(text, `${origin}/llms.txt`).links.map((l) => l.url);

  it('lists exactly the pages the llms.txt lists: not a page left out in the Review, nor one stored empty', async () => {
    const job = await latestCrawlWithPages(db, origin);
    const pages = await pagesOf(db, job?.id ?? '').toArray();
    const license = pages.find((p) => p.url.includes('/legal/'));
    const changelog = pages.find((p) => p.url.includes('changelog'));
    expect(license && changelog).toBeTruthy();
    const before = await docsFolderFromDb(db, origin, { scoutVersion: '9.9.9', now: NOW });
    expect(before?.manifest.pages.some((p) => p.url === license?.url)).toBe(true);
    expect(before?.manifest.pages.some((p) => p.url === changelog?.url)).toBe(true);
    // One page the user leaves out, one that came back without text (as a refresh of a shell would store it).
    await saveCuration(db, origin, { excluded: [license?.key ?? ''] });
    await db.pages.update([changelog?.jobId ?? '', changelog?.key ?? ''], { empty: 'No readable text' });
    const generated = await generateForSite(db, origin, NOW);
    const folder = await docsFolderFromDb(db, origin, { scoutVersion: '9.9.9', now: NOW });
    if (!generated || !folder) throw new Error('no folder');

    const listed = linksOf(generated.output.llmsTxt);
    const inFolder = folder.manifest.pages.map((p) => p.markdownUrl ?? p.url);
    expect(inFolder.sort()).toEqual([...listed].sort());
    expect(inFolder.length).toBe((before?.manifest.pages.length ?? 0) - 2);
    expect(inFolder.some((u) => u.includes('/legal/') || u.includes('changelog'))).toBe(false);

    const manifest = folder.manifest;
    expect(manifest.format).toBe(DOCS_FOLDER_FORMAT);
    expect(manifest.generator).toEqual({ name: 'llms.txt Scout', version: '9.9.9' });
    expect(manifest.site).toBe(origin);
    expect(manifest.startUrl).toBe(`${origin}/`);
    expect(manifest.scope.mode).toBe('docs');
    expect(manifest.generatedAt).toBe(NOW.toISOString());
    expect(manifest.files.map((f) => [f.path, f.kind])).toEqual([['llms.txt', 'llms'], ['llms-full.txt', 'llms-full']]);
    // Every page in a section, with its token count, under pages/.
    for (const page of manifest.pages) {
      expect(page.path).toMatch(/^pages\/.+\.md$/);
      expect(page.section).not.toBe('');
      expect(page.tokens).toBeGreaterThan(0);
    }
    const byPath = new Map(folder.files.map((f) => [f.relativePath, f]));
    expect(byPath.get('llms.txt')?.text).toBe(generated.files.files[0]?.text);
    const transactions = manifest.pages.find((p) => p.url.endsWith('/guide/transactions.html'));
    const file = byPath.get(transactions?.path ?? '');
    expect(file?.text.split('\n').slice(0, 6)).toEqual([
      '---',
      `url: "${origin}/guide/transactions.html"`,
      'title: "Transactions"',
      `section: "${transactions?.section}"`,
      `fetched: "${transactions?.fetchedAt}"`,
      '---',
    ]);
    expect(file?.text).toContain('# Transactions');
    expect(file?.text).toContain('## The callback form');
  });

  it('is read back from disk as written, from the zip the panel saves and from the folder the CLI writes', async () => {
    const folder = await docsFolderFromDb(db, origin, { scoutVersion: '9.9.9', now: NOW });
    if (!folder) throw new Error('no folder');
    // The panel's export: a zip of the same files, unpacked.
    const zip = unzipSync(zipSync(Object.fromEntries(folder.files.map((f) => [f.relativePath, new TextEncoder().encode(f.text)]))));
    const unpacked = join(tmp, 'unzipped');
    await writeFilesInside(unpacked, Object.entries(zip).map(([relativePath, data]) => ({ relativePath, text: strFromU8(data) })));
    const set = await readDocsFolder(unpacked);
    expect(set.manifest).toEqual(folder.manifest);
    expect(set.pages.map((p) => p.path)).toEqual(folder.manifest.pages.map((p) => p.path));
    const transactions = set.pages.find((p) => p.url.endsWith('/guide/transactions.html'));
    expect(transactions?.markdown.startsWith('# Transactions\n')).toBe(true);
    expect(set.llmsTxt.get('llms.txt')?.startsWith('# ')).toBe(true);
  });

  it('saves its search index and loads it on the next start while the folder is unchanged', async () => {
    const dir = join(tmp, 'unzipped');
    const cacheDir = join(tmp, 'index-cache');
    const tick = () => new Promise((resolve) => setImmediate(resolve));
    const first = await DocsLibrary.open([dir], undefined, { cacheDir });
    expect(first.indexAll()).toEqual({ loaded: 0, built: 1 });
    const answer = first.search('snapshot isolation');
    expect(answer[0]?.url).toBe(`${origin}/guide/transactions.html`);
    await tick();
    const second = await DocsLibrary.open([dir], undefined, { cacheDir });
    expect(second.indexAll()).toEqual({ loaded: 1, built: 0 });
    expect(second.search('snapshot isolation')).toEqual(answer);
    // The folder written again: the saved index is for another folder state, so it is built anew.
    const manifest = join(dir, 'manifest.json');
    await writeFile(manifest, `${await readFile(manifest, 'utf8')}\n`);
    const third = await DocsLibrary.open([dir], undefined, { cacheDir });
    expect(third.indexAll()).toEqual({ loaded: 0, built: 1 });
  });

  it('refuses a folder that is not one, or is broken, with each reason in words', async () => {
    const folder = await docsFolderFromDb(db, origin, { scoutVersion: '9.9.9', now: NOW });
    if (!folder) throw new Error('no folder');
    const problems = async (dir: string) => {
      const error = await readDocsFolder(dir).then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(DocsFolderError);
      return (error as DocsFolderError).problems.join('\n');
    };
    expect(await problems(join(tmp, 'nowhere'))).toBe('there is no such folder');
    const plain = join(tmp, 'plain');
    await mkdir(plain, { recursive: true });
    await writeFile(join(plain, 'notes.txt'), 'hello');
    expect(await problems(join(plain, 'notes.txt'))).toBe('it is a file, not a folder');
    expect(await problems(plain)).toMatch(/^it has no manifest\.json: export "Docs for agents"/);
    // One folder too high, as unzipping into a folder of the zip's name makes it.
    const outer = join(tmp, 'outer');
    await writeFilesInside(join(outer, 'docs.example.test-docs-for-agents'), folder.files);
    expect(await problems(outer)).toBe(`it has no manifest.json, but the folder in it ${join(outer, 'docs.example.test-docs-for-agents')} has: give that folder`);

    const write = async (name: string, manifest: unknown, skip: string[] = []) => {
      const dir = join(tmp, name);
      await writeFilesInside(dir, folder.files.filter((f) => f.kind !== 'manifest' && !skip.includes(f.relativePath)));
      await writeFile(join(dir, 'manifest.json'), typeof manifest === 'string' ? manifest : JSON.stringify(manifest));
      return dir;
    };
    expect(await problems(await write('bad-json', '{"format": '))).toMatch(/^manifest\.json is not valid JSON/);
    expect(await problems(await write('other', { format: 'something-else' }))).toMatch(/not written by llms\.txt Scout/);
    expect(await problems(await write('newer', { ...folder.manifest, formatVersion: 99 }))).toMatch(/format version 99, newer than this Scout reads \(1\): update Scout/);
    const escaping: DocsManifest = { ...folder.manifest, pages: [{ ...(folder.manifest.pages[0] as DocsManifest['pages'][0]), path: '../../etc/passwd' }] };
    expect(await problems(await write('escaping', escaping))).toMatch(/pages\[0\] path "\.\.\/\.\.\/etc\/passwd" steps outside the folder/);
    const gone = folder.manifest.pages[1]?.path ?? '';
    expect(await problems(await write('missing', folder.manifest, [gone]))).toBe(`the page file ${gone} (${folder.manifest.pages[1]?.url}) is missing`);
    expect(await problems(await write('no-llms', folder.manifest, ['llms.txt']))).toBe('the llms.txt file llms.txt is missing');
    // The same folder whole is read.
    expect((await readDocsFolder(await write('whole', JSON.parse(manifestText(folder.manifest))))).pages.length).toBe(folder.manifest.pages.length);
  });

  it('a nested llms.txt keeps its path on the site, and a page never lands on it', () => {
    const entry = (key: string) => ({ key, title: key, url: `https://d.test/${key}`, pageUrl: `https://d.test/${key}`, tokens: 5 });
    const page = (key: string, markdown: string) => ({ key, url: `https://d.test/${key}`, finalUrl: `https://d.test/${key}`, title: key, markdown, fetchedAt: 0 });
    const folder = buildDocsFolder({
      name: 'D', origin: 'https://d.test', startUrl: 'https://d.test/', scope: { mode: 'site' }, scoutVersion: '1', crawledAt: 0, generatedAt: 0,
      sections: [{ id: 'a', name: 'A', optional: false, tokens: 10, entries: [entry('pages/x.html'), entry('Pages/X.htm'), entry('a/b')] }],
      pages: [page('pages/x.html', '---\ntitle: twin\n---\n# X\ntext'), page('Pages/X.htm', '# X again'), page('a/b', '# B'), page('not-listed', '# Not listed')],
      siteFiles: [
        { path: '/llms.txt', url: 'https://d.test/llms.txt', kind: 'llms', text: '# D\n' },
        { path: '/a%5C..%5Cevil/llms.txt', url: 'https://d.test/a%5C..%5Cevil/llms.txt', kind: 'llms', text: '# evil\n' },
      ],
    });
    expect(folder.files.map((f) => f.relativePath)).toEqual(['manifest.json', 'llms.txt', 'pages/pages/x.md', 'pages/Pages/X-2.md', 'pages/a/b.md']);
    expect(folder.leftOut).toEqual([expect.stringMatching(/^\/a%5C\.\.%5Cevil\/llms\.txt: left out, its path has/)]);
    // A twin's own front matter is the site's, not the page's text.
    expect(folder.files[2]?.text.endsWith('---\n\n# X\ntext\n')).toBe(true);
    expect(folder.files[2]?.text).not.toContain('title: twin');
  });
});

describe('Markdown cut at its headings', () => {
  const markdown = [
    'Intro before any heading.',
    '',
    '# Guide',
    'Guide text.',
    '',
    '## Install',
    'Run this:',
    '```sh',
    '# not a heading',
    'pip install acorn',
    '```',
    '### From source',
    'Clone it.',
    '',
    'Upgrading',
    '---------',
    'Setext heading body.',
    '',
    '## Configure [`acorn.config`](https://d.test/x#y) \\_now\\_ ##',
    'Settings.',
  ].join('\n');

  it('finds ATX and setext headings, never one inside fenced code, with the headings above each', () => {
    const sections = markdownSections(markdown);
    expect(sections.map((s) => [s.level, s.heading, s.trail.join(' > ')])).toEqual([
      [0, '', ''],
      [1, 'Guide', ''],
      [2, 'Install', 'Guide'],
      [3, 'From source', 'Guide > Install'],
      [2, 'Upgrading', 'Guide'],
      [2, 'Configure acorn.config _now_', 'Guide'],
    ]);
    const install = findSection(sections, 'install');
    expect(install && sectionText(markdown, install)).toBe('## Install\nRun this:\n```sh\n# not a heading\npip install acorn\n```\n### From source\nClone it.');
    expect(findSection(sections, 'from SOURCE')?.heading).toBe('From source');
    expect(findSection(sections, 'grad')?.heading).toBe('Upgrading');
    expect(findSection(sections, 'Deploy')).toBeUndefined();
  });

  it('search chunks are the sections, headings weighted, link targets not indexed', () => {
    const page = { site: 's', path: 'pages/guide.md', url: 'https://d.test/guide', title: 'Guide', section: 'Docs', markdown: `${markdown}\n\nSee [the reference](https://d.test/library/zebra.html).` };
    // The H1 that repeats the page's title is left out of each heading's trail.
    expect(chunksOf(page).map((c) => c.heading)).toEqual(['', '', 'Install', 'Install › From source', 'Upgrading', 'Configure acorn.config _now_']);
    expect(chunksOf({ ...page, title: 'Acorn' }).map((c) => c.heading)[2]).toBe('Guide › Install');
    const index = new DocsIndex();
    index.replaceSite('s', [page, { ...page, path: 'pages/other.md', title: 'Other', markdown: '# Other\nNothing about installing here, but upgrading twice: upgrading.' }]);
    const hits = index.query('pip install');
    expect(hits[0]).toMatchObject({ path: 'pages/guide.md', heading: 'Install', url: 'https://d.test/guide' });
    expect(hits[0]?.snippet).toContain('pip install acorn');
    expect(index.query('zebra')).toEqual([]);
    expect(index.query('upgrading', { section: 'nope' })).toEqual([]);
    // A site replaced: its old chunks go.
    index.replaceSite('s', [{ ...page, markdown: '# Guide\nNew text only.' }]);
    expect(index.query('pip install')).toEqual([]);
    expect(index.query('new text')[0]?.path).toBe('pages/guide.md');
  });
});

it('reads its own manifest text back', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'scout-manifest-'));
  try {
    const folder = buildDocsFolder({ name: 'D', origin: 'https://d.test', startUrl: 'https://d.test/', scope: { mode: 'site' }, scoutVersion: '1', crawledAt: 0, generatedAt: 0, sections: [], pages: [], siteFiles: [{ path: '/llms.txt', url: 'https://d.test/llms.txt', kind: 'llms', text: '# D\n' }] });
    await writeFilesInside(dir, folder.files);
    expect(JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'))).toEqual(folder.manifest);
    expect((await readDocsFolder(dir)).pages).toEqual([]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

describe('"Use with your agent": the configurations', () => {
  it('run scout mcp on the folder with node, named after the site, paths quoted for the shell only where needed', () => {
    const plain = agentConfigs({ host: 'docs.python.org', scoutFolder: '/home/me/llms-txt-scout/', docsFolder: '/home/me/docs/python' });
    expect(plain.serverName).toBe('scout-docs-python-org');
    expect(plain.claudeCode).toBe('claude mcp add scout-docs-python-org -- node /home/me/llms-txt-scout/cli/bin.mjs mcp /home/me/docs/python');
    expect(JSON.parse(plain.cursor)).toEqual({ mcpServers: { 'scout-docs-python-org': { command: 'node', args: ['/home/me/llms-txt-scout/cli/bin.mjs', 'mcp', '/home/me/docs/python'] } } });
    expect(JSON.parse(plain.vscode)).toEqual({ servers: { 'scout-docs-python-org': { type: 'stdio', command: 'node', args: ['/home/me/llms-txt-scout/cli/bin.mjs', 'mcp', '/home/me/docs/python'] } } });
    const spaced = agentConfigs({ host: 'docs.example.test:8080', scoutFolder: 'C:\\Tools\\scout', docsFolder: "/Users/me/My Docs/Bob's" });
    expect(spaced.serverName).toBe('scout-docs-example-test-8080');
    expect(spaced.claudeCode).toBe(`claude mcp add scout-docs-example-test-8080 -- node 'C:\\Tools\\scout/cli/bin.mjs' mcp '/Users/me/My Docs/Bob'\\''s'`);
    expect(JSON.parse(spaced.vscode).servers['scout-docs-example-test-8080'].args).toEqual(['C:\\Tools\\scout/cli/bin.mjs', 'mcp', "/Users/me/My Docs/Bob's"]);
  });
});
