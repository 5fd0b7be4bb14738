/**
 * Is a fetched page an empty client-rendered shell? Documentation built as a single-page app
 * (docsify, React/Vue apps, some hosted platforms before hydration) answers `fetch` with a mount
 * point and script tags; its text only exists after the scripts run. Such a page converts to
 * almost nothing, and storing it would give an llms.txt of empty entries. This module only reads
 * the parsed HTML — nothing is executed — and says, in words shown next to the page, why it
 * looks like a shell.
 */
import type { DomAdapter } from '../convert/dom';
import { readDocsifyConfig, type DocsifyConfig } from './docsify-config';
import { isSpaceCode } from '../whitespace';

/** What the detector concluded about one page. */
export interface ShellVerdict {
  /** True when the page's content needs its scripts to run. */
  shell: boolean;
  /** The evidence in words: "empty #root · 2 script bundles · <noscript> asks for JavaScript". */
  reason: string;
  /** A framework named by its own markers (docsify, Next.js, Nuxt, Angular, React, Vue, Gatsby, SvelteKit). */
  framework?: string;
  /** docsify's configuration, read from `window.$docsify = {…}` without running it. */
  docsify?: DocsifyConfig;
}

/** Below this many characters of text in the main content a page is thin (a real docs page has paragraphs). */
export const THIN_CHARS = 200;
/**
 * Below this many characters a page has almost no text (a title, a placeholder): an element its
 * inline script names, or an empty `<main>`, is a mount point only then — on a page with sentences
 * such an element is a helper's container (footnotes, search results).
 */
export const ALMOST_NO_TEXT = 50;
/** A mount point holding less text than this is empty ("Loading…" and spinners included). */
const EMPTY_MOUNT_CHARS = 80;
/** Ids frameworks mount into; docsify's own is #app. */
const MOUNT_IDS = ['root', 'app', '__next', '__nuxt', '___gatsby', 'svelte', 'docsify', 'react-root', 'q-app', 'main-app', 'application'];
/** Custom elements that are an app's root (Angular's default). */
const MOUNT_TAGS = ['app-root'];
const NOSCRIPT_PLEA = /javascript|\bjs\b/i;
const NOSCRIPT_VERB = /enable|turn on|switch on|activate|require|need|must|disabled|support|allow/i;
const NOT_TEXT = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG']);

const IMAGE = /!\[[^[\]]*\]\((?:[^()]|\([^()]*\))*\)/g;

/**
 * Characters of readable text in Markdown: link targets, images and markup left out. It is the
 * length of the text with images removed, each link target `](…)` cut to `]`, every run of markup
 * (`#*_\`>|[]-`) and whitespace made one space, and the ends trimmed; counted in one pass without
 * building that text (every crawled page is measured, some of them megabytes long). Counting stops
 * at `limit`, which is then the answer: a caller that asks "is there text" or "is it thin" does
 * not read a long page to its end.
 */
export function plainTextLength(markdown: string, limit = Number.POSITIVE_INFINITY): number {
  // Only images are cut out of the text itself: a link target after one may start where it was (`[a]![i](x)(y)`).
  const text = markdown.includes('![') ? markdown.replace(IMAGE, '') : markdown;
  let length = 0;
  // Markup or whitespace since the last character counted: one space if more text follows.
  let gap = false;
  for (let i = 0; i < text.length && length < limit; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x5d && text.charCodeAt(i + 1) === 0x28) {
      // `](target)`: the `]` stays, as markup; the target goes.
      const end = linkTargetEnd(text, i + 1);
      if (end > 0) {
        gap = true;
        i = end - 1;
        continue;
      }
    }
    if (isMarkupOrSpace(code)) {
      gap = true;
    } else {
      length += gap && length > 0 ? 2 : 1;
      gap = false;
    }
  }
  return Math.min(length, limit);
}

/**
 * Where the link target that opens at `open` (a `(`) ends: after its `)`, with one level of
 * balanced parentheses inside (`(https://x.test/a_(b))`); -1 when it is not closed so. The same
 * text the pattern `\((?:[^()]|\([^()]*\))*\)` matches there, which never backtracks into a match.
 */
function linkTargetEnd(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x29) return i + 1;
    if (code !== 0x28) continue;
    let close = i + 1;
    while (close < text.length && text.charCodeAt(close) !== 0x28 && text.charCodeAt(close) !== 0x29) close++;
    if (text.charCodeAt(close) !== 0x29) return -1;
    i = close;
  }
  return -1;
}

/** Markdown's markup characters (`#*_\`>|[]-`) and what `\s` matches in a regular expression. */
function isMarkupOrSpace(code: number): boolean {
  if (code < 0x80) {
    // # * _ ` > | [ ] -, then tab, line feed, vertical tab, form feed, carriage return and space.
    return code === 0x23 || code === 0x2a || code === 0x5f || code === 0x60 || code === 0x3e || code === 0x7c || code === 0x5b || code === 0x5d || code === 0x2d || (code >= 0x09 && code <= 0x0d) || code === 0x20;
  }
  return isSpaceCode(code);
}

/** Text of an element without scripts, styles, noscript and templates (linkedom's textContent includes them). */
function visibleText(element: Element, limit: number): string {
  // Collapsed as it is read: the limit counts text, not the whitespace between tags.
  let out = '';
  const walk = (node: Node) => {
    if (out.trim().length >= limit) return;
    if (node.nodeType === 3) out = `${out}${(node.textContent ?? '').replace(/\s+/g, ' ')}`.replace(/ {2,}/g, ' ');
    else if (node.nodeType === 1 && !NOT_TEXT.has((node as Element).tagName.toUpperCase())) for (const child of node.childNodes) walk(child);
  };
  walk(element);
  return out.replace(/\s+/g, ' ').trim();
}

function frameworkOf(document: Document, inline: string): string | undefined {
  if (/\$docsify\b/.test(inline)) return 'docsify';
  if (document.getElementById('__NEXT_DATA__') || /self\.__next_f\b/.test(inline) || document.getElementById('__next')) return 'Next.js';
  if (/window\.__NUXT__/.test(inline) || document.getElementById('__nuxt')) return 'Nuxt';
  if (document.querySelector('[ng-version], app-root')) return 'Angular';
  if (document.getElementById('___gatsby')) return 'Gatsby';
  if (/__sveltekit/.test(inline)) return 'SvelteKit';
  if (document.querySelector('[data-reactroot]') || /react(-dom)?[.-]/i.test(scriptSources(document).join(' '))) return 'React';
  if (document.querySelector('[data-v-app], [data-server-rendered]') || /\bvue[.-]/i.test(scriptSources(document).join(' '))) return 'Vue';
  return undefined;
}

function scriptSources(document: Document): string[] {
  return [...document.querySelectorAll('script[src]')].map((s) => s.getAttribute('src') ?? '');
}

/** Script types a browser runs; JSON data, import maps and templates run nothing. */
const RUNNABLE_TYPE = /^(?:|module|(?:text|application)\/(?:x-)?(?:javascript|ecmascript)|text\/(?:babel|jsx))$/i;

/** Scripts the browser would run: a source to load, or inline code. */
function runnableScripts(document: Document): HTMLScriptElement[] {
  return [...document.querySelectorAll('script')].filter((s) => RUNNABLE_TYPE.test((s.getAttribute('type') ?? '').split(';')[0]?.trim() ?? '') && (s.getAttribute('src') || (s.textContent ?? '').trim()));
}

/** Ids an inline script names as a string ('docs', "#docs"): where its app may mount, whatever the framework. */
function idsNamedBy(inline: string): Set<string> {
  return new Set([...inline.matchAll(/["'`]#?([A-Za-z][\w-]{0,63})["'`]/g)].map((m) => m[1] ?? ''));
}

/**
 * Judges one parsed page. `textChars` is how much text the converter found in its main content
 * (see {@link plainTextLength}; link text counts, so an index of links is not thin). A page is a
 * shell when it is thin, runs a script (a bundle or inline code, any framework or none), and shows
 * where its content will come from: an empty mount point (a framework's usual id, an element the
 * page's inline script names, or an empty `<main>`), a body of scripts only, a `<noscript>` asking
 * for JavaScript, or docsify's configuration. A page that redirects (`<meta http-equiv=refresh>`)
 * is a redirect notice, not a shell.
 */
export function detectShell(document: Document, textChars: number): ShellVerdict {
  const scripts = runnableScripts(document);
  const inlineScripts = scripts.filter((s) => !s.getAttribute('src'));
  const inline = inlineScripts.map((s) => s.textContent ?? '').join('\n');
  const bundles = scripts.filter((s) => s.getAttribute('src') || s.getAttribute('type') === 'module').length;
  const inlineOnly = scripts.length - bundles;
  const evidence: string[] = [];

  // A framework's usual mount point is empty below a placeholder's length ("Loading…"); an element
  // the inline script names, or the page's <main>, only when it holds no text at all on a page with
  // almost none.
  const usual = [...MOUNT_IDS.map((id) => document.getElementById(id)), ...MOUNT_TAGS.map((tag) => document.querySelector(tag))];
  const other = [...[...idsNamedBy(inline)].filter((id) => !MOUNT_IDS.includes(id)).map((id) => document.getElementById(id)), document.querySelector('main, [role="main"]')];
  const isElement = (m: Element | null): m is HTMLElement => m !== null && m !== document.body;
  const empty = usual.filter(isElement).find((m) => visibleText(m, EMPTY_MOUNT_CHARS).length < EMPTY_MOUNT_CHARS && !hasTextLink(m)) ?? (textChars < ALMOST_NO_TEXT ? other.filter(isElement).find((m) => visibleText(m, 1).length === 0) : undefined);
  if (empty) evidence.push(`empty ${empty.id ? `#${empty.id}` : `<${empty.tagName.toLowerCase()}>`}`);
  const body = document.body;
  // A body with a link in it says something (a redirect notice, an index): not an app's placeholder.
  // Inline code alone is what analytics snippets are too, so then the body must hold no text at all.
  const bodyText = body ? visibleText(body, EMPTY_MOUNT_CHARS) : '';
  const scriptsOnly = !empty && body !== null && !hasTextLink(body) && (bundles > 0 ? bodyText.length < EMPTY_MOUNT_CHARS : inlineOnly > 0 && bodyText.length === 0);
  if (scriptsOnly) evidence.push('a body of scripts only');
  const plea = [...document.querySelectorAll('noscript')].some((n) => {
    const text = n.textContent ?? '';
    return NOSCRIPT_PLEA.test(text) && NOSCRIPT_VERB.test(text);
  });
  if (plea) evidence.push('<noscript> asks for JavaScript');
  const docsify = /\$docsify\b/.test(inline) ? readDocsifyConfig(inline) ?? {} : undefined;
  if (docsify) evidence.push('window.$docsify config');
  if (bundles > 0) evidence.push(bundles === 1 ? '1 script bundle' : `${bundles} script bundles`);
  if (inlineOnly > 0 && !docsify) evidence.push(inlineOnly === 1 ? '1 inline script' : `${inlineOnly} inline scripts`);
  // "0; url=/next/" and "0;next.html" both send the reader on (HTML's refresh syntax); a meta inside <noscript> too.
  const refresh = (content: string) => /^\s*\d+(?:\.\d*)?\s*[;,]\s*\S/.test(content);
  const metaRefresh = [...document.querySelectorAll('meta[http-equiv]')].some((m) => /^refresh$/i.test(m.getAttribute('http-equiv') ?? '') && refresh(m.getAttribute('content') ?? ''))
    || [...document.querySelectorAll('noscript')].some((n) => [...(n.textContent ?? '').matchAll(/<meta\b[^<>]{0,400}>/gi)].some(([tag]) => /http-equiv\s*=\s*["']?refresh\b/i.test(tag) && refresh(/\bcontent\s*=\s*["']([^"']{0,200})/i.exec(tag)?.[1] ?? '')));
  // Inline code only, that sends the reader elsewhere (location.replace/assign, location = …), and
  // nothing else suggesting an app: a redirect page of the generator's (mdBook, Javadoc), not a shell.
  const redirectScript = bundles === 0 && !empty && !plea && /\blocation\s*(?:\.\s*(?:replace|assign)\s*\(|(?:\.\s*href\s*)?=(?!=))/.test(inline);
  const redirect = metaRefresh || redirectScript;
  if (metaRefresh) evidence.push('a redirect notice (<meta refresh>)');
  else if (redirectScript) evidence.push('a redirect script');

  const framework = frameworkOf(document, inline);
  const thin = textChars < THIN_CHARS;
  const shell = thin && !redirect && (empty !== undefined || scriptsOnly || plea || docsify !== undefined) && (scripts.length > 0 || docsify !== undefined);
  const words = [`${textChars} characters of text`, ...evidence, ...(framework ? [framework] : [])].join(' · ');
  const verdict: ShellVerdict = { shell, reason: shell ? `Client-rendered shell: ${words}` : `Not a shell: ${words}` };
  if (framework) verdict.framework = framework;
  if (docsify) verdict.docsify = docsify;
  return verdict;
}

function hasTextLink(element: Element): boolean {
  return [...element.querySelectorAll('a[href]')].some((a) => visibleText(a, 1).length > 0);
}

/**
 * The verdict for a fetched page, or undefined when its converted Markdown has enough text to be
 * a real page — the usual case, which costs nothing. Thin pages are parsed once more (the
 * converter's DOM was already cleaned of scripts and noscript); they are small.
 */
export function shellOf(html: string, markdown: string, dom: DomAdapter): ShellVerdict | undefined {
  // Exact below THIN_CHARS, the only counts the verdict reports.
  const chars = plainTextLength(markdown, THIN_CHARS);
  if (chars >= THIN_CHARS) return undefined;
  try {
    return detectShell(dom.parse(html), chars);
  } catch {
    return undefined;
  }
}
