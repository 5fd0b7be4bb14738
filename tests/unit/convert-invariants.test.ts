import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pruneNonText } from '@/lib/convert/clean';
import { convertHtml } from '@/lib/convert/convert-page';
import { linkedomAdapter } from '@/lib/convert/dom';
import { findMainContent } from '@/lib/convert/main-content';
import { matrixSites } from '../fixtures/matrix';
import { htmlFilesUnder, nodeDocsDir, pythonDocsDir } from '../fixtures/real-docs';

/**
 * Invariants that need no ground truth, over the pages of every matrix site (all of them, or an
 * even sample of 150 on a larger site unless SCOUT_ALL_PAGES is set): each h1–h6 inside
 * the main content the converter picked (outside navigation) is a Markdown heading holding the
 * same words, and the lines of its code blocks are kept. Measured against the page's own HTML,
 * parsed apart from the conversion.
 */
const sites = matrixSites();
const built = JSON.parse(readFileSync('.cache/matrix/matrix.json', 'utf8')) as { sites: Array<{ id: string; root: string }> };
const rootOf = (id: string): string => (id === 'python' ? pythonDocsDir() : id === 'node' ? nodeDocsDir() : (built.sites.find((s) => s.id === id)?.root ?? ''));

// Large sites (Python: over 500 long pages) are read as an even sample in the unit suite, which
// runs on two cores; SCOUT_ALL_PAGES=1 reads every page.
const MAX_PAGES = process.env.SCOUT_ALL_PAGES ? Number.POSITIVE_INFINITY : 150;
function pagesOf(root: string): string[] {
  const files = htmlFilesUnder(root);
  const step = Math.max(1, Math.ceil(files.length / MAX_PAGES));
  return files.filter((_, index) => index % step === 0);
}

const words = (text: string): string => (text.match(/[\p{L}\p{N}]+/gu) ?? []).join(' ').toLowerCase();

/** A heading's words as a reader sees them: hidden parts and icons left out, a line break read as a space. */
function headingWords(heading: Element): string {
  let text = '';
  const read = (node: Node): void => {
    if (node.nodeType === 3) text += node.nodeValue ?? '';
    if (node.nodeType !== 1) return;
    const element = node as Element;
    const tag = element.localName.toLowerCase();
    if (tag === 'br') text += ' ';
    if (['script', 'style', 'svg', 'button', 'br'].includes(tag) || element.getAttribute('aria-hidden') === 'true' || element.hasAttribute('hidden')) return;
    for (let child = node.firstChild; child; child = child.nextSibling) read(child);
    text += ' ';
  };
  read(heading);
  return words(text);
}

/** A Markdown heading's words, link targets left out. */
// Targets are absolute after conversion, so a code span's "](err, name)" is not taken for one.
const markdownWords = (line: string): string => words(line.replace(/^#+ /, '').replace(/\]\((?:https?|mailto|ftp|tel):(?:[^()]|\([^()]*\))*\)/g, ']'));

interface Tally {
  pages: number;
  headings: number;
  kept: number;
  missing: string[];
}
const tallies = new Map<string, Tally>();

describe('every page of every matrix site', () => {
  afterAll(() => {
    const rows = [...tallies].map(([id, t]) => `| ${id} | ${t.pages} | ${t.kept} / ${t.headings} | ${(t.kept / Math.max(1, t.headings)).toFixed(4)} |`);
    console.log(['| site | pages | headings kept | ratio |', '|---|---:|---:|---:|', ...rows].join('\n'));
  });

  it.each(sites.map((s) => [s.id]))('%s: keeps every heading of the main content as a Markdown heading with its words', { timeout: 600_000 }, (id) => {
    const root = rootOf(id);
    const tally: Tally = { pages: 0, headings: 0, kept: 0, missing: [] };
    tallies.set(id, tally);
    for (const file of pagesOf(root)) {
      const html = readFileSync(join(root, file), 'utf8');
      const document = linkedomAdapter.parse(html);
      pruneNonText(document.documentElement);
      const main = findMainContent(document.body);
      const expected = [...main.querySelectorAll('h1, h2, h3, h4, h5, h6')]
        .filter((heading) => !heading.closest('nav, [role=navigation]'))
        .map(headingWords)
        .filter(Boolean);
      const { markdown } = convertHtml(html, `http://${id}.matrix.test/${file}`, linkedomAdapter);
      const got = markdown.split('\n').filter((line) => /^#{1,6} /.test(line)).map((line) => ` ${markdownWords(line)} `);
      tally.pages++;
      for (const heading of expected) {
        tally.headings++;
        if (got.some((line) => line.includes(` ${heading} `))) tally.kept++;
        else tally.missing.push(`${file}: ${heading}`);
      }
    }
    expect(tally.pages).toBeGreaterThan(10);
    expect(tally.headings).toBeGreaterThan(tally.pages);
    // Headings inside table cells (Javadoc's selector table) cannot be Markdown headings.
    expect(tally.kept / tally.headings, tally.missing.slice(0, 10).join('\n')).toBeGreaterThanOrEqual(0.99);
  });
});
