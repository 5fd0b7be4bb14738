/**
 * `scout mcp` (cli/mcp.ts) as an agent runs it: a child process over stdio, driven by the MCP SDK's
 * own Client. The folder it serves comes from a real crawl of the Python 3.11 docs (served on
 * loopback by the fixture server) made into a docs folder as the Output tab's export makes it; a
 * second from `scout generate --for-agents` on the demo site. List, search, read a page and a
 * section, llms.txt; every bad request is an error result in words and the server goes on; a
 * folder that cannot be served stops it at once with the reason; a folder written again is read again.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocsManifest } from '@/lib/agents/docs-folder';
import { docsFolderFromDb } from '@/lib/agents/from-db';
import { createDb } from '@/lib/store/db';
import { crawlSite } from '@/lib/headless/crawl-site';
import { writeFilesInside } from '@/lib/headless/write-out';
import { pythonDocsDir } from '../fixtures/real-docs';
import { loopbackFetch, startFixtureServer } from '../fixtures/server';

const NOW = new Date('2026-11-25T12:00:00Z');

interface ToolText {
  text: string;
  isError: boolean;
  data: Record<string, unknown> | undefined;
}

/** `scout mcp <folders>` started as a child process and connected with the SDK's client. */
/** The URL of the first search result, or undefined. */
const firstUrl = (result: ToolText) => (result.data?.results as Array<{ url: string }> | undefined)?.[0]?.url;

async function connect(...folders: string[]): Promise<{ client: Client; call: (name: string, args?: Record<string, unknown>) => Promise<ToolText>; ms: number }> {
  const started = performance.now();
  // Saved indexes go to the test's own folder, not the user's cache.
  const transport = new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', 'cli/scout.ts', 'mcp', ...folders], cwd: process.cwd(), stderr: 'pipe', env: { SCOUT_CACHE_DIR: join(tmp, 'index-cache') } });
  const client = new Client({ name: 'scout-test', version: '1.0.0' });
  await client.connect(transport);
  const ms = performance.now() - started;
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await client.callTool({ name, arguments: args });
    const content = result.content as Array<{ type: string; text?: string }>;
    return { text: content.map((c) => c.text ?? '').join('\n'), isError: result.isError === true, data: result.structuredContent as Record<string, unknown> | undefined };
  };
  return { client, call, ms };
}

/** `scout mcp …` run to its end (for the folders it refuses to serve). */
function runScout(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'cli/scout.ts', ...args], { cwd: process.cwd(), timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

let tmp: string;
let python: string;
let pythonManifest: DocsManifest;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'scout-mcp-'));
  // The Python docs crawled by the product's own crawler, and the folder the panel's export holds.
  const server = await startFixtureServer({ 'docs.python.test': { dir: pythonDocsDir() } });
  const db = createDb(`mcp-python-${crypto.randomUUID()}`);
  try {
    const { job } = await crawlSite({ db, startUrl: server.url('docs.python.test', '/index.html'), fetch: loopbackFetch(), now: NOW, output: {} });
    const folder = await docsFolderFromDb(db, job.origin, { scoutVersion: 'test', now: NOW });
    if (!folder) throw new Error('the Python crawl made no docs folder');
    python = join(tmp, 'python');
    const written = await writeFilesInside(python, folder.files);
    expect(written.leftOut).toEqual([]);
    pythonManifest = folder.manifest;
  } finally {
    await db.delete();
    await server.close();
  }
}, 900_000);

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('scout mcp on the Python docs', () => {
  let session: Awaited<ReturnType<typeof connect>>;
  beforeAll(async () => {
    session = await connect(python);
    console.log(`scout mcp: ${pythonManifest.pages.length} pages, connected in ${Math.round(session.ms)} ms`);
  }, 120_000);
  afterAll(async () => {
    await session?.client.close();
  });
  const page = (suffix: string) => {
    const found = pythonManifest.pages.find((p) => p.url.endsWith(suffix));
    if (!found) throw new Error(`no page ${suffix} in the folder`);
    return found;
  };

  it('lists the four tools and the set', async () => {
    const tools = await session.client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(['list_docs', 'search_docs', 'read_page', 'get_llms_txt']);
    const list = await session.call('list_docs');
    expect(list.isError).toBe(false);
    const sets = list.data?.sets as Array<{ id: string; pages: number; sections: Array<{ name: string }>; site: string; name: string }>;
    expect(sets).toHaveLength(1);
    expect(sets[0]?.pages).toBe(pythonManifest.pages.length);
    expect(sets[0]?.pages).toBeGreaterThan(400);
    expect(sets[0]?.name).toMatch(/^Python 3\.11/);
    expect(sets[0]?.sections.map((s) => s.name)).toEqual(expect.arrayContaining(['Tutorial', 'Library Reference']));
    expect(list.text).toContain(`${sets[0]?.id}: Python 3.11`);
  });

  it('search finds the page that answers, with its source URL, page, heading and snippet', async () => {
    const json = await session.call('search_docs', { query: 'json.dumps indent', limit: 5 });
    expect(json.isError).toBe(false);
    const results = json.data?.results as Array<{ url: string; path: string; heading: string; snippet: string; section: string }>;
    expect(results.length).toBeGreaterThan(0);
    expect(results.length).toBeLessThanOrEqual(5);
    expect(results[0]?.url).toBe(page('/library/json.html').url);
    expect(results[0]?.path).toBe(page('/library/json.html').path);
    expect(results[0]?.snippet.toLowerCase()).toContain('indent');
    expect(json.text).toContain(`1. json — JSON encoder and decoder`);
    expect(json.text).toContain(page('/library/json.html').url);

    // A section filter keeps to that section of the llms.txt.
    const tutorial = await session.call('search_docs', { query: 'list comprehensions', section: 'Tutorial' });
    const inTutorial = tutorial.data?.results as Array<{ section: string; url: string }>;
    expect(inTutorial.length).toBeGreaterThan(0);
    expect(inTutorial.every((r) => r.section === 'Tutorial')).toBe(true);
    expect(inTutorial[0]?.url).toBe(page('/tutorial/datastructures.html').url);
  });

  it('reads a page whole, by its path or its URL, and one section by its heading', async () => {
    const json = page('/library/json.html');
    const whole = await session.call('read_page', { page: json.path });
    expect(whole.isError).toBe(false);
    expect(whole.text.startsWith(`Source: ${json.url}\n`)).toBe(true);
    expect(whole.text).toContain('json.dumps(');
    expect(whole.text).toContain('Encoders and Decoders');
    const byUrl = await session.call('read_page', { page: json.url });
    expect(byUrl.text).toBe(whole.text);

    const section = await session.call('read_page', { page: json.url, heading: 'basic usage' });
    expect(section.isError).toBe(false);
    expect(section.data?.heading).toBe('Basic Usage');
    expect(section.text).toContain('json.dump(');
    expect(section.text).not.toContain('Encoders and Decoders');
    expect(section.text.length).toBeLessThan(whole.text.length / 2);

    // A page too long to hand over whole comes as its headings and its start.
    const long = pythonManifest.pages.find((p) => p.url.endsWith('/library/stdtypes.html'));
    const cut = await session.call('read_page', { page: long?.path ?? '' });
    expect(cut.data?.truncated).toBe(true);
    expect(cut.text).toContain('Read the rest one section at a time');
    expect(cut.text.length).toBeLessThan(70_000);
  });

  it("gets the site's llms.txt and a nested one", async () => {
    const root = await session.call('get_llms_txt');
    expect(root.isError).toBe(false);
    expect(root.text.startsWith('# Python 3.11')).toBe(true);
    expect(root.data?.path).toBe('llms.txt');
    const nested = pythonManifest.files.find((f) => f.kind === 'llms' && f.path !== 'llms.txt');
    expect(nested).toBeDefined();
    const one = await session.call('get_llms_txt', { path: nested?.path });
    expect(one.isError).toBe(false);
    expect(one.text.startsWith('# ')).toBe(true);
    expect(one.text).not.toBe(root.text);
  });

  it('answers bad requests with an error result in words, and goes on serving', async () => {
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['read_page', { page: 'pages/no/such/page.md' }, /^No page "pages\/no\/such\/page\.md"\. Give a page's URL or its path as search_docs returns it/],
      ['read_page', { page: 'https://elsewhere.test/x.html' }, /^No page/],
      ['read_page', {}, /^"page" is required\./],
      ['read_page', { page: page('/library/json.html').path, heading: 'No such heading here' }, /^The page "json — JSON encoder and decoder" has no heading "No such heading here"\. Its headings:\n.*Basic Usage/s],
      ['search_docs', { query: '   ' }, /^The query is empty/],
      ['search_docs', { query: 42 }, /^"query" must be text, got number\./],
      ['search_docs', { query: 'json', site: 'docs.nowhere.test' }, /^No documentation set "docs\.nowhere\.test"\. The sets served are: /],
      ['search_docs', { query: 'json', section: 'Cooking' }, /^No section "Cooking"\. Sections: .*Tutorial/],
      ['search_docs', { query: 'json', limit: 'lots' }, /^"limit" must be a number from 1 to 50\./],
      ['get_llms_txt', { path: 'nowhere/llms.txt' }, /^No llms\.txt "nowhere\/llms\.txt" in .*Its llms\.txt files: llms\.txt/],
      ['no_such_tool', {}, /^No tool "no_such_tool"\. The tools are list_docs, search_docs, read_page, get_llms_txt\./],
    ];
    for (const [name, args, message] of cases) {
      const result = await session.call(name, args);
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(result.text, `${name} ${JSON.stringify(args)}`).toMatch(message);
    }
    const nothing = await session.call('search_docs', { query: 'qwxzvbnmlkj' });
    expect(nothing.isError).toBe(false);
    expect(nothing.text).toMatch(/^Nothing found for "qwxzvbnmlkj"/);
    expect((await session.call('list_docs')).isError).toBe(false);
  });

  it('saves its index, and a second start answers the same from it', async () => {
    const first = await session.call('search_docs', { query: 'asyncio gather tasks concurrently', limit: 5 });
    await expect.poll(async () => (await readdir(join(tmp, 'index-cache'))).filter((f) => f.endsWith('.index')).length, { timeout: 30_000 }).toBe(1);
    const again = await connect(python);
    try {
      const second = await again.call('search_docs', { query: 'asyncio gather tasks concurrently', limit: 5 });
      expect(second.data).toEqual(first.data);
      expect(first.data?.results).toHaveLength(5);
    } finally {
      await again.client.close();
    }
  }, 120_000);
});

describe('scout mcp, starting and changing', () => {
  it('refuses a folder it cannot serve: exit 1 and why on stderr, nothing on stdout', async () => {
    const missing = await runScout('mcp', join(tmp, 'no-such-folder'));
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/no-such-folder is not a docs folder Scout can serve:\n {2}there is no such folder/);
    const empty = await mkdtemp(join(tmp, 'empty-'));
    const notFolder = await runScout('mcp', python, empty);
    expect(notFolder.code).toBe(1);
    expect(notFolder.stderr).toMatch(/it has no manifest\.json: export "Docs for agents"/);
    const usage = await runScout('mcp');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/mcp takes one or more docs folders/);
  }, 120_000);

  it('serves a folder scout generate --for-agents wrote, and reads it again when it is written again', async () => {
    const demo = join(tmp, 'demo');
    const generate = await runScout('generate', 'tests/fixtures/sites/demo-docs', '--base-url', 'http://docs.scout-demo.test/', '--out', demo, '--for-agents', '--date', '2026-11-25', '--quiet');
    expect(generate.stderr).toBe('');
    expect(generate.code).toBe(0);
    expect(generate.stdout).toMatch(/Docs folder for agents: 14 pages as Markdown under pages\/ and manifest\.json/);
    const session = await connect(demo, python);
    try {
      const sets = (await session.call('list_docs')).data?.sets as Array<{ id: string }>;
      expect(sets.map((s) => s.id)).toEqual(['docs.scout-demo.test', expect.stringMatching(/^docs\.python\.test/)]);
      // Two sets: which one must be said for a page or an llms.txt, and search looks in both unless told.
      expect((await session.call('get_llms_txt')).text).toMatch(/^Several documentation sets are served; say which with "site": one of docs\.scout-demo\.test, docs\.python\.test/);
      const acorn = await session.call('search_docs', { query: 'snapshot isolation transaction', site: 'docs.scout-demo.test' });
      expect(firstUrl(acorn)).toBe('http://docs.scout-demo.test/guide/transactions.html');
      expect((await session.call('search_docs', { query: 'zanzibarite glacier' })).text).toMatch(/^Nothing found/);

      // The folder written again (a refresh, a new export): a new page and its manifest entry.
      const manifestPath = join(demo, 'manifest.json');
      const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as DocsManifest;
      await writeFile(join(demo, 'pages', 'guide', 'glaciers.md'), '---\nurl: "http://docs.scout-demo.test/guide/glaciers.html"\ntitle: "Glaciers"\n---\n\n# Glaciers\n\nZanzibarite glacier storage keeps cold data.\n');
      manifest.pages.push({ path: 'pages/guide/glaciers.md', url: 'http://docs.scout-demo.test/guide/glaciers.html', title: 'Glaciers', section: 'Guide', tokens: 12, fetchedAt: '2026-11-25T13:00:00.000Z' });
      await writeFile(manifestPath, JSON.stringify(manifest));
      const found = await session.call('search_docs', { query: 'zanzibarite glacier' });
      expect(firstUrl(found)).toBe('http://docs.scout-demo.test/guide/glaciers.html');
      // Written again broken: the copy read before is still served.
      await writeFile(manifestPath, '{ broken');
      const still = await session.call('search_docs', { query: 'zanzibarite glacier' });
      expect(still.isError).toBe(false);
      expect(firstUrl(still)).toBe('http://docs.scout-demo.test/guide/glaciers.html');
    } finally {
      await session.client.close();
    }
  }, 180_000);
});
