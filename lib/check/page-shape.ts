/**
 * What the page-shape checks read off a sampled page's HTML, parsed once per page: the signs of a
 * client-rendered shell (rendering-strategy), its tab groups (tabbed-content-serialization,
 * section-header-quality), and the whole page as Markdown, navigation included, as an agent that
 * converts the HTML it fetched gets it (content-start-position, embedded-data-serialization).
 * Every rule is structural: elements, ARIA roles and text lengths, never a theme's class or words.
 */
import { linkedomAdapter } from '../convert/dom';
import { elementToMarkdown } from '../convert/markdown';
import type { SampledPage } from './gather';

/** The content signals AFDocs' rendering-strategy counts, after navigation and chrome are set aside. */
export interface RenderSignals {
  /** Scripts that run (not JSON data blocks). */
  scripts: number;
  headings: number;
  paragraphs: number;
  codeBlocks: number;
  mainContent: boolean;
  textLength: number;
}

export interface TabPanel {
  label: string | null;
  /** The panel's section headings, in order (not those inside asides or notes). */
  headers: string[];
  /** The panel as Markdown, for its size. */
  markdown: string;
}

export interface TabGroup {
  panels: TabPanel[];
  /** Characters of the group as Markdown: every panel, serialized one after another. */
  chars: number;
}

export interface PageShape {
  render: RenderSignals;
  tabs: TabGroup[];
  /** The whole document as Markdown (scripts and styles left out, navigation kept). */
  markdown: string;
}

const CHROME = 'script, style, noscript, template, svg, nav, header, footer, aside, [role="navigation"], [role="banner"], [role="contentinfo"], [role="complementary"]';
const DATA_SCRIPT = /^\s*application\/(?:ld\+)?json\b/i;
const NOTE_ROLES = new Set(['alert', 'note', 'status', 'complementary']);

const textOf = (el: Element | null | undefined): string => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();

/** AFDocs' positive evidence of a documentation page (detect-rendering.js `hasSubstantiveContent`). */
export function hasSubstantiveContent(s: RenderSignals): boolean {
  return s.textLength >= 1500 || (s.headings >= 1 && s.textLength >= 500) || s.headings >= 3 || s.paragraphs >= 5 || (s.mainContent && s.headings >= 1) || s.codeBlocks >= 3;
}

function renderSignals(doc: Document): RenderSignals {
  const scripts = [...doc.querySelectorAll('script')].filter((s) => !DATA_SCRIPT.test(s.getAttribute('type') ?? '')).length;
  const body = (doc.body ?? doc.documentElement).cloneNode(true) as Element;
  for (const el of [...body.querySelectorAll(CHROME)]) el.remove();
  const longParagraphs = (root: Element) => [...root.querySelectorAll('p')].filter((p) => textOf(p).length > 30).length;
  const main = body.querySelector('main, [role="main"]');
  return {
    scripts,
    headings: [...body.querySelectorAll('h1, h2, h3, h4, h5, h6')].filter((h) => textOf(h).length > 3).length,
    paragraphs: longParagraphs(body),
    codeBlocks: body.querySelectorAll('pre, code').length,
    mainContent: main ? longParagraphs(main) >= 2 || main.querySelectorAll('pre, code').length >= 1 : false,
    textLength: textOf(body).length,
  };
}

/** True when a heading sits in an aside or a note (a label, not a section of the panel). */
function inNote(el: Element, stop: Element): boolean {
  for (let at: Element | null = el; at && at !== stop; at = at.parentElement) {
    if (at.tagName.toLowerCase() === 'aside' || NOTE_ROLES.has(at.getAttribute('role') ?? '')) return true;
  }
  return false;
}

function toMarkdown(el: Element): string {
  try {
    return elementToMarkdown(el.cloneNode(true) as Element);
  } catch {
    return textOf(el);
  }
}

/**
 * Tab groups by their ARIA structure: a `role="tablist"` of `role="tab"`s whose `role="tabpanel"`s
 * sit in the same container (the tablist's parent or up to four levels above), as every accessible
 * tab widget is built whatever its theme.
 */
function htmlTabs(doc: Document): TabGroup[] {
  const groups: TabGroup[] = [];
  const claimed: Element[] = [];
  for (const list of [...doc.querySelectorAll('[role="tablist"]')]) {
    if (claimed.some((c) => c.contains(list))) continue;
    const tabs = [...list.querySelectorAll('[role="tab"]')];
    if (!tabs.length) continue;
    let container: Element | null = list.parentElement;
    let panels: Element[] = [];
    for (let depth = 0; container && depth < 4; depth++, container = container.parentElement) {
      panels = [...container.querySelectorAll('[role="tabpanel"]')];
      if (panels.length) break;
    }
    if (!container || !panels.length) continue;
    claimed.push(container);
    const shown = panels.map((panel, i): TabPanel => ({
      label: tabs[i] ? textOf(tabs[i]) || null : null,
      headers: [...panel.querySelectorAll('h1, h2, h3, h4, h5, h6')].filter((h) => !inNote(h, panel)).map(textOf).filter(Boolean),
      markdown: toMarkdown(panel),
    }));
    groups.push({ panels: shown, chars: shown.reduce((sum, p) => sum + p.markdown.length, 0) });
  }
  return groups;
}

const TABS_OPEN = /<Tabs\b[^<>]*>/g;
const TAB_OPEN = /<(?:Tab|TabItem)\b([^<>]*)>/g;
const TAB_LABEL = /\b(?:name|label|value|title)\s*=\s*"([^"]*)"/;
const HEADING_MARK = /^ {0,3}#{1,6}[ \t]/;

/** The ATX headings of a Markdown text, without their marks. */
function markdownHeadings(text: string): string[] {
  return text.split('\n').filter((l) => HEADING_MARK.test(l)).map((l) => {
    let end = l.length;
    while (end > 0 && (l[end - 1] === ' ' || l[end - 1] === '\t' || l[end - 1] === '#')) end--;
    return l.slice(0, end).replace(/^ {0,3}#{1,6}[ \t]+/, '').trim();
  }).filter(Boolean);
}

/**
 * Tab groups in Markdown: `<Tabs>` blocks of `<Tab>` / `<TabItem>` components, as MDX sources and
 * the Markdown generated from them write tabs. Nested groups count as part of the outer one.
 */
export function markdownTabs(markdown: string): TabGroup[] {
  const groups: TabGroup[] = [];
  TABS_OPEN.lastIndex = 0;
  for (let open = TABS_OPEN.exec(markdown); open; open = TABS_OPEN.exec(markdown)) {
    let depth = 1;
    let at = open.index + open[0].length;
    while (depth > 0) {
      const nextOpen = markdown.indexOf('<Tabs', at);
      const nextClose = markdown.indexOf('</Tabs>', at);
      if (nextClose < 0) break;
      if (nextOpen >= 0 && nextOpen < nextClose) {
        depth++;
        at = nextOpen + 5;
      } else {
        depth--;
        at = nextClose + 7;
      }
    }
    const block = markdown.slice(open.index, at);
    const starts = [...block.matchAll(TAB_OPEN)];
    const panels = starts.map((m, i): TabPanel => {
      const body = block.slice((m.index ?? 0) + m[0].length, starts[i + 1]?.index ?? block.length);
      return { label: TAB_LABEL.exec(m[1] ?? '')?.[1] ?? null, headers: markdownHeadings(body), markdown: body };
    });
    groups.push({ panels, chars: block.length });
    TABS_OPEN.lastIndex = at;
  }
  return groups;
}

/** A page its scripts fill in: scripts, and none of the content signals in the HTML (rendering-strategy's fail). */
export const isShell = (s: RenderSignals): boolean => s.scripts > 0 && !hasSubstantiveContent(s) && s.headings < 1 && s.paragraphs < 2 && s.codeBlocks < 1;

const shapes = new WeakMap<SampledPage, PageShape>();

/** The page's shape, parsed once for all the checks that read it. */
export function shapeOf(page: SampledPage): PageShape {
  const known = shapes.get(page);
  if (known) return known;
  const doc = linkedomAdapter.parse(page.html);
  const render = renderSignals(doc);
  const tabs = htmlTabs(doc);
  for (const el of [...doc.querySelectorAll('script, style, noscript, template')]) el.remove();
  let markdown: string;
  try {
    markdown = elementToMarkdown(doc.documentElement);
  } catch {
    markdown = textOf(doc.documentElement);
  }
  const shape = { render, tabs, markdown };
  shapes.set(page, shape);
  return shape;
}
