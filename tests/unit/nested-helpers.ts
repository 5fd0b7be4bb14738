/**
 * Shared by the nested-output tests: a synthetic docs site big enough to nest, and a walker that
 * follows a nested layout from its root the way an agent would.
 */
import { parseLlmsTxt } from '@/lib/discovery/parse-llms-txt';
import type { NestedFile } from '@/lib/generate/nested';
import type { SourcePage } from '@/lib/generate/types';

export const SITE = 'https://docs.big.test';

// A Markdown link, its text captured (the pattern lean-links.ts reads links with).
const LINK = /(?<!\\)\[((?:\\.|[^\\[\]]|\[(?:\\.|[^\\[\]])*\])*)\]\([^()\s]*(?:\([^()\s]*\)[^()\s]*)*(?:\s+"(?:\\.|[^"\\])*")?\)/g;

/** The words of Markdown read with every link as its text: what lean links must keep exactly. */
export function textWords(markdown: string): string[] {
  return markdown.replace(LINK, '$1').split(/\s+/).filter(Boolean);
}

function page(path: string, title: string, links: string[] = [], body = ''): SourcePage {
  const url = `${SITE}${path}`;
  const list = links.map((line) => line).join('\n');
  const description = `${title} explains one part of the Big framework in enough words to make this description line realistically long for an index.`;
  return { key: url, url, finalUrl: url, title, description, markdown: `# ${title}\n\n${description}\n\n${body}\n\n${list}`.trim(), depth: path.split('/').length - 2, format: 'html', state: 'stored' };
}

/**
 * A site of 1 + 30 guide pages, 8 API modules × 30 pages in their own folders, a flat /reference/
 * folder of 6 chapters × 9 pages whose index lists them as a nested table of contents, and 12
 * changelog pages the caller may move to Optional.
 */
export function bigSite(): SourcePage[] {
  const pages: SourcePage[] = [page('/index.html', 'Big', ['- [Guide](/guide/index.html)', '- [API](/api/index.html)', '- [Reference](/reference/index.html)', '- [Changes](/changes/index.html)'].map((l) => l.replace('](/', `](${SITE}/`)))];
  const guide = Array.from({ length: 29 }, (_, i) => `/guide/topic-${i + 1}.html`);
  pages.push(page('/guide/index.html', 'Guide', guide.map((p, i) => `- [Topic ${i + 1}](${SITE}${p})`)));
  guide.forEach((p, i) => pages.push(page(p, `Topic ${i + 1}`, [], `See [the API](${SITE}/api/index.html#start) and [Topic 1](${SITE}/guide/topic-1.html#intro).`)));
  const modules = Array.from({ length: 8 }, (_, m) => `mod${m + 1}`);
  pages.push(page('/api/index.html', 'API', modules.map((m) => `- [${m}](${SITE}/api/${m}/index.html)`)));
  for (const m of modules) {
    const names = Array.from({ length: 29 }, (_, i) => `/api/${m}/fn-${i + 1}.html`);
    pages.push(page(`/api/${m}/index.html`, `Module ${m}`, names.map((p, i) => `- [fn${i + 1}](${SITE}${p})`)));
    names.forEach((p, i) => pages.push(page(p, `${m}.fn${i + 1}()`, [], `Call ${i + 1} returns a [Thing](${SITE}/api/${m}/index.html#Thing) of kind ${i + 1}; see [Thing](${SITE}/api/${m}/index.html#Thing) again.`)));
  }
  const toc: string[] = [];
  for (let c = 1; c <= 6; c++) {
    toc.push(`- [Chapter ${c}](${SITE}/reference/chapter-${c}.html)`);
    for (let i = 1; i <= 8; i++) toc.push(`  - [Item ${c}.${i}](${SITE}/reference/item-${c}-${i}.html)`);
  }
  pages.push(page('/reference/index.html', 'Reference', toc));
  for (let c = 1; c <= 6; c++) {
    pages.push(page(`/reference/chapter-${c}.html`, `Chapter ${c}`));
    for (let i = 1; i <= 8; i++) pages.push(page(`/reference/item-${c}-${i}.html`, `Item ${c}.${i}`));
  }
  pages.push(page('/changes/index.html', 'Changes', Array.from({ length: 11 }, (_, i) => `- [v${i + 1}](${SITE}/changes/v${i + 1}.html)`)));
  for (let i = 1; i <= 11; i++) pages.push(page(`/changes/v${i}.html`, `Version ${i}`));
  return pages;
}

/**
 * A 10,000-page site with a deep section tree: 10 areas × 10 books × 10 chapters × 10 pages, each
 * folder with an index page listing its children.
 */
export function deepSite(): SourcePage[] {
  const pages: SourcePage[] = [page('/index.html', 'Deep', Array.from({ length: 10 }, (_, a) => `- [Area ${a}](${SITE}/a${a}/index.html)`))];
  for (let a = 0; a < 10; a++) {
    pages.push(page(`/a${a}/index.html`, `Area ${a}`, Array.from({ length: 10 }, (_, b) => `- [Book ${a}.${b}](${SITE}/a${a}/b${b}/index.html)`)));
    for (let b = 0; b < 10; b++) {
      pages.push(page(`/a${a}/b${b}/index.html`, `Book ${a}.${b}`, Array.from({ length: 10 }, (_, c) => `- [Chapter ${a}.${b}.${c}](${SITE}/a${a}/b${b}/c${c}/index.html)`)));
      for (let c = 0; c < 10; c++) {
        const dir = `/a${a}/b${b}/c${c}`;
        pages.push(page(`${dir}/index.html`, `Chapter ${a}.${b}.${c}`, Array.from({ length: 9 }, (_, p) => `- [Page ${p}](${SITE}${dir}/p${p}.html)`)));
        for (let p = 0; p < 9; p++) pages.push(page(`${dir}/p${p}.html`, `Page ${a}.${b}.${c}.${p}`));
      }
    }
  }
  return pages;
}

/** Walks a layout from its root: the files reached and every link to something that is not one of them (the pages). */
export function walkNested(files: NestedFile[]): { visited: string[]; pages: Set<string> } {
  const byUrl = new Map(files.map((file) => [file.url, file]));
  const root = files[0];
  const visited: string[] = [];
  const pages = new Set<string>();
  const queue = root ? [root] : [];
  const seen = new Set(queue.map((file) => file.url));
  while (queue.length > 0) {
    const file = queue.shift() as NestedFile;
    visited.push(file.path);
    for (const link of parseLlmsTxt(file.text, file.url).links) {
      const child = byUrl.get(link.url);
      if (!child) pages.add(link.url);
      else if (!seen.has(child.url)) {
        seen.add(child.url);
        queue.push(child);
      }
    }
  }
  return { visited, pages };
}
