/**
 * docsify without a browser: a docsify site is a shell page plus the Markdown files it fetches
 * and renders, one per hash route (`/#/guide/intro` shows `guide/intro.md`). Scout reads those
 * files directly — what docsify would render is exactly that Markdown — so no tab is opened.
 * The rules follow docsify's router (src/core/router/history/base.js: `toURL`, `getFile`).
 */
import type { NavLink } from '../convert/nav-links';
import type { DocsifyConfig } from '../shell/docsify-config';

/** The shell page a hash-routed URL is shown by: the URL without its fragment. */
export function shellUrlOf(pageUrl: string): string {
  const url = new URL(pageUrl);
  url.hash = '';
  return url.href;
}

/** The route of a page URL: `/guide/intro` for `…/#/guide/intro?id=x`, `/` when it has none. */
export function routeOf(pageUrl: string): string {
  const match = /^#!?(\/[^?]*)/.exec(new URL(pageUrl).hash);
  return match?.[1] ? decodeURI(match[1]) : '/';
}

/** The page URL of a route on a shell: `/` is the shell itself. */
export function routeUrl(shellUrl: string, route: string): string {
  return route === '/' ? shellUrl : `${shellUrl}#${encodeURI(route)}`;
}

/** The folder the Markdown lives in: basePath against the shell page, always ending in `/`. */
function baseOf(shellUrl: string, config: DocsifyConfig): URL {
  const base = new URL(config.basePath ?? '', shellUrl);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  base.search = '';
  base.hash = '';
  return base;
}

/** The Markdown file docsify fetches for a route: `/` → homepage or README.md, `/a/` → a/README.md, `/a` → a.md. */
export function markdownUrlFor(shellUrl: string, route: string, config: DocsifyConfig): string {
  let file: string;
  if (route === '/') file = config.homepage ?? 'README.md';
  else if (route.endsWith('/')) file = `${route.slice(1)}README.md`;
  else file = `${route.slice(1).replace(/\.md$/i, '')}.md`;
  return new URL(encodeURI(file), baseOf(shellUrl, config)).href;
}

/** The sidebar file's URL, when the config loads one. */
export function sidebarUrlFor(shellUrl: string, config: DocsifyConfig): string | undefined {
  if (!config.loadSidebar) return undefined;
  const file = config.loadSidebar === true ? '_sidebar.md' : config.loadSidebar;
  return new URL(encodeURI(file), baseOf(shellUrl, config)).href;
}

/** Resolves `a/../b/./c` the way docsify's resolvePath does. */
function resolvePath(path: string): string {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '..') out.pop();
    else if (part !== '.') out.push(part);
  }
  return out.join('/');
}

/**
 * Where a link in a docsify page goes, as an absolute URL: routes become hash-route URLs on the
 * shell (`guide.md` → `…/#/guide`), other files resolve against the Markdown folder, web
 * addresses stay as they are. Anchors within the page and `:ignore`d links give null.
 */
export function docsifyLink(target: string, currentRoute: string, shellUrl: string, config: DocsifyConfig): string | null {
  const href = target.trim();
  if (href === '' || /^[a-z][a-z0-9+.-]*:/i.test(href)) return /^https?:/i.test(href) ? href : null;
  if (href.startsWith('#') && !href.startsWith('#/')) return null;
  let path = (href.startsWith('#/') ? href.slice(1) : href).split(/[?#]/)[0] ?? '';
  // A file that is not Markdown (an image, a PDF) is served next to the Markdown, not routed.
  if (/\.[a-z0-9]+$/i.test(path) && !/\.md$/i.test(path)) return new URL(path, baseOf(shellUrl, config)).href;
  path = path.replace(/\.md$/i, '');
  if (!path.startsWith('/')) {
    const dir = config.relativePath ? currentRoute.slice(0, currentRoute.lastIndexOf('/') + 1) : '/';
    path = dir + path;
  }
  path = `/${resolvePath(path).replace(/^\/+/, '')}`.replace(/(^|\/)README$/i, '$1');
  return routeUrl(shellUrl, path || '/');
}

// A title follows the address after whitespace (as CommonMark has it): with only optional space
// between them, quotes could be read as either, and a line of `[[](""` backtracked cubically.
const LINK = /(?<!!)\[([^[\]]*)\]\(\s*<?((?:[^()\s<>]|\([^()\s]*\))+)>?(?:\s+["'][^"']*["'])?\s*\)/g;

/** Every link of a docsify Markdown page, as URLs (see {@link docsifyLink}), in order. */
export function docsifyLinks(markdown: string, currentRoute: string, shellUrl: string, config: DocsifyConfig): string[] {
  const out: string[] = [];
  for (const match of markdown.replace(/```[\s\S]*?```/g, '').matchAll(LINK)) {
    const url = docsifyLink(match[2] ?? '', currentRoute, shellUrl, config);
    if (url) out.push(url);
  }
  return out;
}

// The item's text is the rest of the line (leading spaces trimmed where it is read): `.` with the
// `s` flag takes everything, so no two quantifiers share the spaces after the bullet.
const ITEM = /^(\s*)[-*+]\s(.*)$/s;

/**
 * docsify's `_sidebar.md` (a nested Markdown list) as the site's navigation tree: linked items
 * are pages, plain items are group labels ("Getting started"), depth from the indentation.
 */
export function parseSidebar(markdown: string, shellUrl: string, config: DocsifyConfig): NavLink[] {
  const out: NavLink[] = [];
  const indents: number[] = [];
  for (const line of markdown.split(/\r?\n/)) {
    const match = ITEM.exec(line.replace(/\t/g, '  '));
    if (!match) continue;
    const indent = match[1]?.length ?? 0;
    while (indents.length && (indents.at(-1) ?? 0) >= indent) indents.pop();
    const depth = indents.length;
    indents.push(indent);
    const text = (match[2] ?? '').trimStart();
    const link = /\[([^[\]]*)\]\(\s*<?((?:[^()\s<>]|\([^()\s]*\))+)/.exec(text);
    if (link) {
      const url = docsifyLink(link[2] ?? '', '/', shellUrl, config);
      if (url) out.push({ title: plain(link[1] ?? ''), url, depth });
    } else if (plain(text)) out.push({ title: plain(text), url: '', depth });
  }
  return out;
}

function plain(text: string): string {
  return text.replace(/\[([^[\]]*)\]\((?:[^()]|\([^()]*\))*\)/g, '$1').replace(/[*_`]/g, '').trim();
}
