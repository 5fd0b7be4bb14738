import { describe, expect, it } from 'vitest';
import { parseLlmsTxt } from '@/lib/discovery/parse-llms-txt';
import { BodyCounts } from '@/lib/generate/body-counts';
import { generateOutputs } from '@/lib/generate/generate';
import { buildOutputFiles, fileFullText, type OutputFiles } from '@/lib/generate/output-files';
import { countTokens } from '@/lib/tokens';
import type { GeneratedOutput } from '@/lib/generate/types';
import { validateLlmsTxt } from '@/lib/generate/validate';
import { bigSite, deepSite, SITE, walkNested } from './nested-helpers';

const NOW = new Date('2026-11-23T00:00:00Z');

function generate(optional: boolean): GeneratedOutput {
  const pages = bigSite();
  const changes = pages.filter((p) => p.url.includes('/changes/')).map((p) => p.key);
  return generateOutputs({ startUrl: `${SITE}/index.html`, pages, generatedAt: NOW, curation: optional ? { optional: changes } : {} });
}

function files(output: GeneratedOutput, budget: number, leanLinks = false, layout: 'nested' | 'flat' = 'nested'): OutputFiles {
  return buildOutputFiles({ model: output, flatText: output.llmsTxt, fullText: output.llmsFullTxt, origin: SITE, settings: { budget, layout, leanLinks }, counts: new BodyCounts(), plainCounts: output.fullTokens });
}

describe('nested llms.txt files', () => {
  const output = generate(true);
  const pageUrls = output.sections.flatMap((s) => s.entries.map((e) => e.url));

  it('change nothing when the flat file fits the budget', () => {
    const result = files(output, 1_000_000);
    expect(result.files).toHaveLength(1);
    expect(result.files[0]?.text).toBe(output.llmsTxt);
    expect(fileFullText(output.llmsFullTxt, result, result.files[0] as OutputFiles['files'][number], SITE)).toBe(output.llmsFullTxt);
    expect(result.files[0]?.full.tokens).toBe(output.tokens.llmsFullTxt);
  });

  it('stay one flat file over the budget when the user chose flat', () => {
    const result = files(output, 5_000, false, 'flat');
    expect(result.files).toHaveLength(1);
    expect(result.files[0]?.text).toBe(output.llmsTxt);
  });

  it('over the budget: every file fits, is a valid llms.txt, and every page is reachable from the root', () => {
    const budget = 12_000;
    expect(output.llmsTxt.length).toBeGreaterThan(budget * 5);
    const result = files(output, budget);
    for (const file of result.files) {
      expect(file.text.length, file.path).toBeLessThanOrEqual(budget);
      expect(parseLlmsTxt(file.text, file.url).warnings, file.path).toEqual([]);
      expect(validateLlmsTxt(file.text, file.url).filter((f) => f.severity !== 'info'), file.path).toEqual([]);
    }
    const walked = walkNested(result.files);
    expect(walked.visited.sort()).toEqual(result.files.map((f) => f.path).sort());
    expect(pageUrls.filter((url) => !walked.pages.has(url))).toEqual([]);
    // The root keeps its head and details; small sections stay inline, large ones are one link each.
    const root = parseLlmsTxt(result.files[0]?.text ?? '', `${SITE}/llms.txt`);
    expect(root.title).toBe(output.title);
    expect(root.summary).toBe(output.summary);
    expect(root.details).toContain('Large sections have their own llms.txt');
    const apiLink = root.links.find((l) => l.url === `${SITE}/api/llms.txt`);
    expect(apiLink?.notes).toMatch(/^24\d pages in \d+ parts: /);
  });

  it('put each file where the site would publish it: a section’s own folder, else a folder named after it', () => {
    const result = files(output, 12_000);
    const paths = result.files.map((f) => f.path);
    // Folders of the site for sections and modules; the flat /reference/ folder split by its table of contents.
    expect(paths).toEqual(expect.arrayContaining(['/llms.txt', '/api/llms.txt', '/api/mod1/llms.txt']));
    // Optional pages that share a folder get it; scattered ones a folder named after the section.
    const small = files(output, 3_000).files;
    expect(parseLlmsTxt(small[0]?.text ?? '', `${SITE}/llms.txt`).sections.find((s) => s.optional)?.links.map((l) => l.url)).toEqual([`${SITE}/changes/llms.txt`]);
    const scattered = generateOutputs({ startUrl: `${SITE}/index.html`, pages: bigSite(), generatedAt: NOW, curation: { optional: bigSite().filter((p) => /fn-1\.html|topic-2\./.test(p.url)).map((p) => p.key) } });
    const layout = files(scattered, 1_500).files;
    expect(layout.map((f) => f.path)).toContain('/optional/llms.txt');
    for (const file of result.files) expect(file.fullPath).toBe(file.path.replace(/llms\.txt$/, 'llms-full.txt'));
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('split a flat folder by its index page’s table of contents', () => {
    const result = files(output, 3_000);
    const reference = result.files.find((f) => f.path === '/reference/llms.txt');
    expect(reference).toBeDefined();
    const sections = parseLlmsTxt(reference?.text ?? '', reference?.url ?? '').sections.map((s) => s.name);
    expect(sections).toEqual(expect.arrayContaining(['Chapter 1', 'Chapter 6']));
    // A chapter is not a folder on the site: its file goes in a folder named after its page (chapter-1.html).
    const chapter = result.files.find((f) => f.path === '/reference/chapter-1/llms.txt');
    expect(chapter?.parent).toBe('/reference/llms.txt');
    expect(chapter?.keys.map((k) => k.replace(SITE, ''))).toEqual(['/reference/chapter-1.html', ...Array.from({ length: 8 }, (_, i) => `/reference/item-1-${i + 1}.html`)]);
  });

  it('give each file an llms-full.txt of exactly its pages, with an exact token count', () => {
    for (const lean of [false, true]) {
      const result = files(output, 12_000, lean);
      for (const file of result.files) {
        const text = fileFullText(output.llmsFullTxt, result, file, SITE);
        expect(text.length, file.path).toBe(file.full.chars);
        expect(countTokens(text), file.path).toBe(file.full.tokens);
        const sources = [...text.matchAll(/^Source: (.+)$/gm)].map((m) => m[1]);
        expect(sources).toEqual(file.keys);
      }
    }
  });

  it('hand each file’s llms-full.txt, as counted, to a caller that writes them: the text fileFullText makes', () => {
    for (const lean of [false, true]) {
      const made = new Map<number, string>();
      const settings = { budget: 12_000, layout: 'nested' as const, leanLinks: lean };
      const result = buildOutputFiles({ model: output, flatText: output.llmsTxt, fullText: output.llmsFullTxt, origin: SITE, settings, counts: new BodyCounts(), plainCounts: output.fullTokens, fullTexts: (i, pieces) => made.set(i, [...pieces].join('')) });
      expect(result.files.length).toBeGreaterThan(2);
      expect([...made.keys()]).toEqual(result.files.map((_, i) => i));
      result.files.forEach((file, i) => expect(made.get(i), file.path).toBe(fileFullText(output.llmsFullTxt, result, file, SITE)));
    }
  });

  it('scale to a 10,000-page site with a deep section tree: every file within 50,000 characters, every page reachable', { timeout: 120_000 }, () => {
    const pages = deepSite();
    const deep = generateOutputs({ startUrl: `${SITE}/index.html`, pages, generatedAt: NOW });
    const started = performance.now();
    const result = files(deep, 50_000, true);
    const ms = performance.now() - started;
    console.log(`10,000-page site: flat llms.txt ${deep.llmsTxt.length} chars; ${result.files.length} files, deepest at level ${Math.max(...result.files.map((f) => f.depth))}, laid out and counted in ${ms.toFixed(0)} ms`);
    expect(pages.length).toBe(10_111);
    for (const file of result.files) {
      expect(file.text.length, file.path).toBeLessThanOrEqual(50_000);
      expect(validateLlmsTxt(file.text, file.url).filter((f) => f.severity !== 'info'), file.path).toEqual([]);
    }
    const reached = walkNested(result.files).pages;
    expect(deep.sections.flatMap((s) => s.entries).filter((e) => !reached.has(e.url))).toEqual([]);
    expect(result.files.map((f) => f.path)).toEqual(expect.arrayContaining(['/a0/llms.txt']));
  });

  it('keep the same layout for the same input (deterministic)', () => {
    const a = files(output, 12_000);
    const b = files(generate(true), 12_000);
    expect(b.files.map((f) => [f.path, f.text])).toEqual(a.files.map((f) => [f.path, f.text]));
  });
});
