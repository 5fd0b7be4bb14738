/**
 * `scout mcp <folder>…`: an MCP server over stdio serving docs folders (lib/agents/) to a coding
 * agent — list the sets, search them, read a page or one section, get an llms.txt. Offline: it
 * reads only the folders. stdout carries the protocol, so everything else goes to stderr.
 *
 * The SDK's low-level Server is used rather than McpServer so that the tools' arguments are
 * checked here, and a wrong one answered in plain words as a tool error the agent can act on.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { DocsFolderError } from '../lib/agents/read-folder';
import { DocsLibrary, ToolError } from '../lib/agents/docs-library';
import type { SearchHit } from '../lib/agents/search-index';
import { EXIT, type ExitCode, type Io } from './common';
import { SCOUT_VERSION } from './version';

const SITE = { type: 'string', description: 'The documentation set, by its id from list_docs (its host, e.g. "docs.python.org"). May be left out when one set is served.' };

export const TOOLS: Tool[] = [
  {
    name: 'list_docs',
    description: 'List the documentation sets this server holds: id, name, site, page count, sections, and when each was crawled. Call it first to learn the set ids.',
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'search_docs',
    description: 'Search the documentation (full text, ranked by BM25, page titles and headings weighted). Returns the best section of each matching page: its source URL, page path, heading and a snippet. Then read_page with the path (and the heading) to read it.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What to look for, in words or identifiers, e.g. "read a file line by line" or "asyncio.gather".' },
        site: SITE,
        section: { type: 'string', description: 'Only pages in this section of the llms.txt (list_docs shows the sections).' },
        limit: { type: 'integer', minimum: 1, maximum: 50, description: 'How many pages at most (default 8).' },
      },
      required: ['query'],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'read_page',
    description: 'Read one documentation page as Markdown, whole or one section of it by its heading. Pages over 60,000 characters come as their headings and their start: then ask for a section.',
    inputSchema: {
      type: 'object',
      properties: {
        page: { type: 'string', description: 'The page: its path as search_docs returns it ("pages/library/os.md") or its URL.' },
        heading: { type: 'string', description: "One section's heading, as the page has it (letter case aside); its sub-sections come with it." },
        site: SITE,
      },
      required: ['page'],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'get_llms_txt',
    description: "Get a documentation set's llms.txt: its title, summary and every page by section, with links. Big sites have nested llms.txt files per section: give their path to read one.",
    inputSchema: {
      type: 'object',
      properties: {
        site: SITE,
        path: { type: 'string', description: 'A nested llms.txt by its path in the folder ("library/llms.txt"); the root one when left out.' },
      },
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
];

/** The argument `name` as a string, or undefined; anything else is a ToolError naming it. */
function stringArg(args: Record<string, unknown>, name: string, required = false): string | undefined {
  const value = args[name];
  if (value === undefined || value === null) {
    if (required) throw new ToolError(`"${name}" is required.`);
    return undefined;
  }
  if (typeof value !== 'string') throw new ToolError(`"${name}" must be text, got ${typeof value}.`);
  return value;
}

function formatHits(query: string, hits: SearchHit[]): string {
  if (!hits.length) return `Nothing found for "${query}". Try other words, fewer words, or an identifier as the docs write it.`;
  return hits.map((hit, i) => `${i + 1}. ${hit.title}${hit.heading ? ` › ${hit.heading}` : ''}\n   ${hit.url}\n   page: ${hit.path} (site: ${hit.site}, section: ${hit.section})\n   ${hit.snippet}`).join('\n\n');
}

const ok = (text: string, structured?: Record<string, unknown>): CallToolResult => ({ content: [{ type: 'text', text }], ...(structured ? { structuredContent: structured } : {}) });
const fail = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

/** One tool call answered; every failure is a tool error result in words. */
export async function callTool(library: DocsLibrary, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  try {
    await library.refresh();
    if (name === 'list_docs') {
      const sets = library.list();
      const text = sets
        .map((s) => `${s.id}: ${s.name} — ${s.pages} pages from ${s.startUrl}\n  crawled ${s.crawledAt}${s.refreshedAt ? `, refreshed ${s.refreshedAt}` : ''}\n  sections: ${s.sections.map((x) => `${x.name} (${x.pages})`).join(', ')}${s.summary ? `\n  ${s.summary}` : ''}`)
        .join('\n\n');
      return ok(text, { sets });
    }
    if (name === 'search_docs') {
      const query = stringArg(args, 'query', true) ?? '';
      const limit = args.limit;
      if (limit !== undefined && (typeof limit !== 'number' || !Number.isFinite(limit))) throw new ToolError('"limit" must be a number from 1 to 50.');
      const site = stringArg(args, 'site');
      const section = stringArg(args, 'section');
      const hits = library.search(query, { ...(site ? { site } : {}), ...(section ? { section } : {}), ...(typeof limit === 'number' ? { limit } : {}) });
      return ok(formatHits(query, hits), { results: hits });
    }
    if (name === 'read_page') {
      const page = stringArg(args, 'page', true) ?? '';
      const read = library.readPage(stringArg(args, 'site'), page, stringArg(args, 'heading'));
      return ok(read.text, { site: read.set, path: read.page.path, url: read.page.url, title: read.page.title, ...(read.heading ? { heading: read.heading } : {}), truncated: read.truncated });
    }
    if (name === 'get_llms_txt') {
      const file = library.llmsTxt(stringArg(args, 'site'), stringArg(args, 'path'));
      return ok(file.text, { site: file.set, path: file.path, url: file.url });
    }
    return fail(`No tool "${name}". The tools are ${TOOLS.map((t) => t.name).join(', ')}.`);
  } catch (error) {
    if (error instanceof ToolError) return fail(error.message);
    return fail(`Scout could not answer: ${(error as Error).message}`);
  }
}

/**
 * The MCP server over `library`, not yet connected. Given while the library is still being read,
 * the server answers `initialize` and `tools/list` at once, and a tool call waits for it.
 */
export function createDocsServer(library: DocsLibrary | Promise<DocsLibrary>): Server {
  const server = new Server(
    { name: 'llms-txt-scout', version: SCOUT_VERSION },
    {
      capabilities: { tools: {} },
      instructions: 'Documentation crawled by llms.txt Scout, served from local folders. Use search_docs to find the pages that answer a question, then read_page (with a heading for one section) to read them; every answer carries its source URL. list_docs says which documentation sets are here.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => callTool(await library, request.params.name, request.params.arguments ?? {}));
  return server;
}

/**
 * Where indexes are saved between starts: SCOUT_CACHE_DIR, else the user's cache folder
 * (XDG_CACHE_HOME or ~/.cache) — never the docs folders, which may be read-only or shared.
 */
export function indexCacheDir(): string {
  return process.env.SCOUT_CACHE_DIR || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'llms-txt-scout', 'search-index');
}

/**
 * Serves `folders` until stdin closes. The connection comes first: an agent's `initialize` is
 * answered while the folders are read and their indexes loaded (or built), and the first tool call
 * waits for them. A folder that cannot be served stops the server (exit 1, the reasons on stderr,
 * nothing more on stdout): an agent's configuration pointing at the wrong place should say so.
 */
export async function runMcp(folders: string[], io: Io): Promise<ExitCode> {
  const started = performance.now();
  const opening = DocsLibrary.open(folders, (message) => process.stderr.write(`scout mcp: ${message}\n`), { cacheDir: indexCacheDir() });
  // Handled here, before anything awaits it, so a bad folder is never an unhandled rejection.
  const opened = opening.then(
    (library) => ({ library }),
    (error: unknown) => ({ error }),
  );
  const server = createDocsServer(opening);
  // Served until the agent goes: it closes stdin (or the connection closes).
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  let initialized = false;
  let library: DocsLibrary | undefined;
  // The index is loaded (or built) once the folders are read and the agent says it is initialized,
  // whichever comes last: `initialize` is answered first, however long building takes (half a
  // minute for 10,000 pages on a busy machine, which agents' connection timeouts do not wait for).
  // A search before then indexes what it needs itself.
  const indexAll = () =>
    setImmediate(() => {
      if (!library) return;
      const indexing = performance.now();
      const { loaded, built } = library.indexAll();
      if (loaded || built) io.progress(`scout mcp: ${library.chunkCount} sections indexed in ${Math.round(performance.now() - indexing)} ms${loaded ? ` (${loaded === 1 ? 'the index' : `${loaded} indexes`} saved by an earlier start)` : ''}`);
    });
  server.oninitialized = () => {
    initialized = true;
    indexAll();
  };
  await server.connect(new StdioServerTransport());
  const result = await opened;
  if ('error' in result) {
    if (!(result.error instanceof DocsFolderError)) throw result.error;
    process.stderr.write(`scout mcp: ${result.error.message}\n`);
    await server.close();
    return EXIT.failed;
  }
  library = result.library;
  io.progress(`scout mcp: serving ${library.list().map((s) => `${s.id} (${s.pages} pages)`).join(', ')}; read in ${Math.round(performance.now() - started)} ms`);
  if (initialized) indexAll();
  await closed;
  return EXIT.ok;
}
