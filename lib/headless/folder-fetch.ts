/**
 * A `fetch` over a built static site on disk, for the command line (`scout generate <folder>`):
 * the crawler asks for `https://docs.example.com/guide/` and gets `<folder>/guide/index.html`, as
 * the site's host would answer, with no server. Node only (node:fs); the extension never imports it.
 *
 * It answers as common static hosts do (nginx, GitHub Pages, Netlify): a file by its extension's
 * content type; a folder asked for without its slash redirects to it (301), or with `cleanUrls`
 * is answered from `/x.html` or `/x/index.html` (Vercel/Netlify "pretty URLs"); a missing path gets
 * the site's own `404.html` with status 404 where it has one. URLs outside `baseUrl` (another
 * origin, or above its path) are not in the folder and answer 404 at once: nothing goes to the
 * network.
 */
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';

export interface FolderFetchOptions {
  /** The built site's folder: what `baseUrl` serves. */
  root: string;
  /** Where the folder is published, e.g. `https://docs.example.com/` or `https://example.github.io/project/`. */
  baseUrl: string;
  /** Answer `/x` from `/x.html` or `/x/index.html` without a redirect. */
  cleanUrls?: boolean;
}

/** Content types by extension, as static hosts send them (text with its charset). */
export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.xhtml': 'application/xhtml+xml; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.markdown': 'text/markdown; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.gz': 'application/gzip',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
};

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_HOPS = 20;

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array | null;
}

async function fileAt(path: string): Promise<string | null> {
  const info = await stat(path).catch(() => null);
  return info?.isFile() ? path : null;
}

/** Returns a fetch that reads `root` as the site published at `baseUrl` (see the module comment). */
export function folderFetch(options: FolderFetchOptions): typeof fetch {
  const root = resolve(options.root);
  const base = new URL(options.baseUrl);
  // The folder is the base URL's directory: /project/ serves root, /project/a.html root/a.html.
  const basePath = base.pathname.endsWith('/') ? base.pathname : base.pathname.slice(0, base.pathname.lastIndexOf('/') + 1);

  const file = async (path: string, status: number): Promise<Answer> => {
    const body = await readFile(path);
    return { status, headers: { 'content-type': CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream', 'content-length': String(body.byteLength) }, body };
  };
  const notFound = async (): Promise<Answer> => {
    const page = await fileAt(join(root, '404.html'));
    if (page) return file(page, 404);
    const body = new TextEncoder().encode('<!doctype html><title>Not found</title><h1>Not found</h1>');
    return { status: 404, headers: { 'content-type': 'text/html; charset=utf-8' }, body };
  };

  const answer = async (url: URL): Promise<Answer> => {
    if (url.origin !== base.origin || !url.pathname.startsWith(basePath)) return notFound();
    let decoded: string;
    try {
      decoded = decodeURIComponent(url.pathname.slice(basePath.length));
    } catch {
      return notFound();
    }
    const path = resolve(root, `.${normalize(`/${decoded}`)}`);
    if (path !== root && !path.startsWith(root + sep)) return notFound();
    const info = await stat(path).catch(() => null);
    if (info?.isFile()) return file(path, 200);
    if (info?.isDirectory()) {
      const index = await fileAt(join(path, 'index.html'));
      if (index && (url.pathname.endsWith('/') || options.cleanUrls)) return file(index, 200);
      if (index) return { status: 301, headers: { location: `${url.pathname}/${url.search}` }, body: null };
    }
    const html = options.cleanUrls && !url.pathname.endsWith('/') ? await fileAt(`${path}.html`) : null;
    return html ? file(html, 200) : notFound();
  };

  const respond = (a: Answer, method: string, url: string, redirected: boolean): Response => {
    const body = method === 'HEAD' || a.body === null ? null : a.body;
    const res = new Response(body as BodyInit | null, { status: a.status, headers: a.headers });
    // A constructed Response has no URL; the crawler reads where a request ended from it.
    Object.defineProperty(res, 'url', { value: url });
    if (redirected) Object.defineProperty(res, 'redirected', { value: true });
    return res;
  };

  return (async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : null;
    const signal = init?.signal ?? request?.signal;
    signal?.throwIfAborted();
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    const mode = init?.redirect ?? request?.redirect ?? 'follow';
    let url = new URL(input instanceof Request ? input.url : input instanceof URL ? input.href : input);
    url.hash = '';
    for (let hop = 0; ; hop++) {
      const a = await answer(url);
      signal?.throwIfAborted();
      const location = REDIRECTS.has(a.status) ? a.headers.location : undefined;
      if (location === undefined || mode === 'manual') return respond(a, method, url.href, hop > 0);
      if (mode === 'error' || hop >= MAX_HOPS) throw new TypeError(`fetch failed: redirect ${mode === 'error' ? 'not allowed' : 'count exceeded'} at ${url.href}`);
      url = new URL(location, url);
    }
  }) as typeof fetch;
}
