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
/** A mount point holding less text than this is empty ("Loading…" and spinners included). */
const EMPTY_MOUNT_CHARS = 80;
/** Ids frameworks mount into; docsify's own is #app. */
const MOUNT_IDS = ['root', 'app', '__next', '__nuxt', '___gatsby', 'svelte', 'docsify', 'react-root', 'q-app', 'main-app', 'application'];
/** Custom elements that are an app's root (Angular's default). */
const MOUNT_TAGS = ['app-root'];
const NOSCRIPT_PLEA = /javascript|\bjs\b/i;
const NOSCRIPT_VERB = /enable|turn on|switch on|activate|require|need|must|disabled|support|allow/i;
const NOT_TEXT = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG']);

/** Characters of readable text in Markdown: link targets, images and markup left out. */
export function plainTextLength(markdown: string): number {
  return markdown
    .replace(/!\[[^[\]]*\]\((?:[^()]|\([^()]*\))*\)/g, '')
    .replace(/\]\((?:[^()]|\([^()]*\))*\)/g, ']')
    .replace(/[#*_`>|[\]-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim().length;
}

/** Text of an element without scripts, styles, noscript and templates (linkedom's textContent includes them). */
function visibleText(element: Element, limit: number): string {
  let out = '';
  const walk = (node: Node) => {
    if (out.length >= limit) return;
    if (node.nodeType === 3) out += node.textContent ?? '';
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

/**
 * Judges one parsed page. `textChars` is how much text the converter found in its main content
 * (see {@link plainTextLength}). A page is a shell when it is thin and shows where its content
 * will come from: an empty mount point, a body of scripts only, a `<noscript>` asking for
 * JavaScript, or docsify's configuration — and it loads a script to do it.
 */
export function detectShell(document: Document, textChars: number): ShellVerdict {
  const scripts = [...document.querySelectorAll('script')];
  const inline = scripts.filter((s) => !s.getAttribute('src')).map((s) => s.textContent ?? '').join('\n');
  const bundles = scripts.filter((s) => s.getAttribute('src') || s.getAttribute('type') === 'module').length;
  const evidence: string[] = [];

  const mounts = [...MOUNT_IDS.map((id) => document.getElementById(id)), ...MOUNT_TAGS.map((tag) => document.querySelector(tag))].filter((m): m is HTMLElement => m !== null);
  const empty = mounts.find((m) => visibleText(m, EMPTY_MOUNT_CHARS).length < EMPTY_MOUNT_CHARS);
  if (empty) evidence.push(`empty ${empty.id ? `#${empty.id}` : `<${empty.tagName.toLowerCase()}>`}`);
  const body = document.body;
  if (!empty && body && bundles > 0 && visibleText(body, EMPTY_MOUNT_CHARS).length < EMPTY_MOUNT_CHARS) evidence.push('a body of scripts only');
  const plea = [...document.querySelectorAll('noscript')].some((n) => {
    const text = n.textContent ?? '';
    return NOSCRIPT_PLEA.test(text) && NOSCRIPT_VERB.test(text);
  });
  if (plea) evidence.push('<noscript> asks for JavaScript');
  const docsify = /\$docsify\b/.test(inline) ? readDocsifyConfig(inline) ?? {} : undefined;
  if (docsify) evidence.push('window.$docsify config');
  if (bundles > 0) evidence.push(bundles === 1 ? '1 script bundle' : `${bundles} script bundles`);

  const framework = frameworkOf(document, inline);
  const thin = textChars < THIN_CHARS;
  const shell = thin && (empty !== undefined || evidence.includes('a body of scripts only') || plea || docsify !== undefined) && (bundles > 0 || docsify !== undefined);
  const words = [`${textChars} characters of text`, ...evidence, ...(framework ? [framework] : [])].join(' · ');
  const verdict: ShellVerdict = { shell, reason: shell ? `Client-rendered shell: ${words}` : `Not a shell: ${words}` };
  if (framework) verdict.framework = framework;
  if (docsify) verdict.docsify = docsify;
  return verdict;
}

/**
 * The verdict for a fetched page, or undefined when its converted Markdown has enough text to be
 * a real page — the usual case, which costs nothing. Thin pages are parsed once more (the
 * converter's DOM was already cleaned of scripts and noscript); they are small.
 */
export function shellOf(html: string, markdown: string, dom: DomAdapter): ShellVerdict | undefined {
  const chars = plainTextLength(markdown);
  if (chars >= THIN_CHARS) return undefined;
  try {
    return detectShell(dom.parse(html), chars);
  } catch {
    return undefined;
  }
}
