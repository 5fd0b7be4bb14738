import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { BodyCounts } from '@/lib/generate/body-counts';
import { buildContextPack, type ContextPack } from '@/lib/generate/context-pack';
import { buildZip } from '@/lib/generate/export';
import { generateOutputs } from '@/lib/generate/generate';
import { buildOutputFiles, fileFullText, type OutputFiles } from '@/lib/generate/output-files';
import { countTokens } from '@/lib/tokens';
import type { GeneratedOutput } from '@/lib/generate/types';
import { bigSite, SITE } from './nested-helpers';

const pages = bigSite();
const output: GeneratedOutput = generateOutputs({ startUrl: `${SITE}/index.html`, pages, generatedAt: new Date('2026-11-23T00:00:00Z'), curation: { optional: pages.filter((p) => p.url.includes('/changes/')).map((p) => p.key) } });
const files: OutputFiles = buildOutputFiles({ model: output, flatText: output.llmsTxt, fullText: output.llmsFullTxt, origin: SITE, settings: { budget: 12_000, layout: 'nested', leanLinks: true }, counts: new BodyCounts() });
const sectionOf = new Map(output.sections.flatMap((s) => s.entries.map((e) => [e.key, s.name] as const)));
const titleOf = new Map(output.sections.flatMap((s) => s.entries.map((e) => [e.key, e.title] as const)));

function pack(budget: number, scope = files.files[0], lean = true): ContextPack {
  if (!scope) throw new Error('no root');
  return buildContextPack({ fullText: output.llmsFullTxt, files, scope, origin: SITE, budget, lean, sectionOf: (k) => sectionOf.get(k) ?? '', titleOf: (k) => titleOf.get(k) ?? k });
}

describe('context packs', () => {
  it('fit the budget exactly as counted, whole pages in reading order, naming every page', () => {
    for (const budget of [4_000, 12_000, 32_000]) {
      const result = pack(budget);
      expect(result.tokens).toBe(countTokens(result.text));
      expect(result.tokens).toBeLessThanOrEqual(budget);
      const root = files.files[0]?.keys ?? [];
      expect([...result.included, ...result.leftOut].sort()).toEqual([...root].sort());
      // Reading order kept; Optional pages, last in the root, come last.
      expect(result.included).toEqual(root.filter((k) => result.included.includes(k)));
      const sources = [...result.text.matchAll(/^Source: (.+)$/gm)].map((m) => m[1]);
      expect(sources).toEqual(result.included);
      // The contents and the left-out list name every page; when that would take over a quarter
      // of a small budget they name the sections and point to the llms.txt that names the pages.
      const named = !result.text.includes('Every page is listed by name in');
      expect(named).toBe(budget >= 12_000);
      if (named) for (const key of root) expect(result.text, key).toContain(titleOf.get(key) ?? '');
      expect(result.leftOut.length > 0).toBe(result.text.includes('Left out (did not fit):'));
    }
  });

  it('hold the whole scope when it fits, with nothing left out', () => {
    const scope = files.files.find((f) => f.path === '/api/mod1/llms.txt');
    const result = pack(200_000, scope);
    expect(result.leftOut).toEqual([]);
    expect(result.included).toEqual(scope?.keys);
    expect(result.text).not.toContain('Left out');
  });

  it('leave out a page bigger than the budget and keep trying smaller ones after it', () => {
    const result = pack(2_500);
    expect(result.included.length).toBeGreaterThan(0);
    expect(result.leftOut.length).toBeGreaterThan(0);
    expect(result.tokens).toBeLessThanOrEqual(2_500);
  });

  it('make links lean for exactly the pages in the pack', () => {
    const scope = files.files.find((f) => f.path === '/api/mod1/llms.txt');
    const lean = pack(200_000, scope);
    const plain = pack(200_000, scope, false);
    expect(lean.tokens).toBeLessThan(plain.tokens);
    // mod1's pages link to its index's #Thing anchor; the index is in the pack, so the link is text.
    expect(lean.text).not.toContain('index.html#Thing');
    expect(plain.text).toContain(`${SITE}/api/mod1/index.html#Thing`);
  });
});

describe('the nested zip', () => {
  it('lays out every llms.txt and llms-full.txt at its path on the site', () => {
    const nested = files.files.slice(1).flatMap((file) => [{ path: file.path, text: file.text }, { path: file.fullPath, text: fileFullText(output.llmsFullTxt, files, file, SITE) }]);
    const root = files.files[0];
    const zip = unzipSync(buildZip({ host: 'docs.big.test', llmsTxt: root?.text ?? '', llmsFullTxt: fileFullText(output.llmsFullTxt, files, root ?? files.files[0] as never, SITE), pages: [], nested }));
    expect(Object.keys(zip)).toEqual(expect.arrayContaining(['llms.txt', 'llms-full.txt', 'api/llms.txt', 'api/llms-full.txt', 'api/mod1/llms.txt', 'api/mod1/llms-full.txt']));
    expect(strFromU8(zip['api/llms.txt'] ?? new Uint8Array())).toBe(files.files.find((f) => f.path === '/api/llms.txt')?.text);
    expect(Object.keys(zip).filter((name) => name.endsWith('llms.txt'))).toHaveLength(files.files.length);
  });
});
