import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '@/lib/store/db';
import { crawlSite } from '@/lib/headless/crawl-site';
import { convertHtml } from '@/lib/convert/convert-page';
import { linkedomAdapter } from '@/lib/convert/dom';
import { markdownDescription, markdownLinks, markdownTitle } from '@/lib/crawl/markdown-meta';
import { parseLlmsTxt } from '@/lib/discovery/parse-llms-txt';
import { cleanSummary } from '@/lib/describe/clean';
import { leanMarkdown } from '@/lib/generate/lean-links';
import { fileStem } from '@/lib/generate/secondary';
import { parseSidebar } from '@/lib/render/docsify';
import { countTokens } from '@/lib/tokens';
import { countTokens as countO200k } from 'gpt-tokenizer';
import { FREEZE_HOST, freezingSite } from '../fixtures/hostile-freeze-site';
import { loopbackFetch, startFixtureServer, type FixtureServer } from '../fixtures/server';

/**
 * The inputs of issue #28 that froze Scout: each made a regular expression backtrack for minutes
 * (exponentially or polynomially in the input's length). Each must now give the right answer at
 * once. The outputs are the assertions; the short test timeout only stops a regression from
 * hanging the suite (the old code did not finish in minutes on any of them).
 */
const FAST = { timeout: 5000 };
const page = (body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>T</title></head><body>${body}</body></html>`;

describe('hostile page text ends in linear time', () => {
  it('a heading with forty U+FEFF before more text keeps its text (no exponential permalink-mark strip)', FAST, () => {
    const feff = '\uFEFF'.repeat(40);
    const out = convertHtml(page(`<main><h1>Intro</h1><p>Body text that is long enough to be read as the page.</p><h2>Install${feff} more</h2><p>Steps.</p></main>`), 'https://docs.example.com/a', linkedomAdapter);
    expect(out.markdown).toContain(`## Install${feff} more`);
  });

  it('permalink marks at the end of a heading still go, however many', FAST, () => {
    const marks = ' \uFEFF¶ #'.repeat(5000);
    const out = convertHtml(page(`<main><h1>Intro</h1><p>Body text that is long enough to be read as the page.</p><h2>Install${marks}</h2><h2>C#</h2><h2>Setup ¶</h2><h2>Usage #</h2></main>`), 'https://docs.example.com/a', linkedomAdapter);
    expect(out.markdown).toMatch(/\n## Install\n\n## C#\n\n## Setup\n\n## Usage$/);
  });

  // No-break spaces are spaces to a regular expression and survive turndown's whitespace folding.
  it('a heading, a link card and code with 200,000 spaces and no line break are read at once', FAST, () => {
    const nbsp = '\u00a0'.repeat(200_000);
    const out = convertHtml(page(`<main><h1>Intro</h1><p>Body text that is long enough to be read as the page.</p><h2>A${nbsp}B</h2><a href="/x"><div>A${nbsp}B</div><div>C</div></a><pre><code>x${' '.repeat(200_000)}y\n  z</code></pre></main>`), 'https://docs.example.com/a', linkedomAdapter);
    // A run of spaces longer than 200 carries no text: it is cut to 200 before conversion.
    const cut = '\u00a0'.repeat(200);
    expect(out.markdown).toContain(`## A${cut}B\n`);
    expect(out.markdown).toContain(`[A${cut}B C](https://docs.example.com/x)`);
    expect(out.markdown).toContain(`x${' '.repeat(200)}y\n  z`);
  });

  it('a Markdown heading of 20,000 spaces gives no title, and the next heading is the title', FAST, () => {
    expect(markdownTitle(`#${' '.repeat(20_000)}\n# Real title\n`)).toBe('Real title');
    expect(markdownTitle(`#${' '.repeat(20_000)}x`)).toBe('x');
    expect(markdownTitle(`# Title ${' '.repeat(20_000)}#${' '.repeat(20_000)}!`)).toBe(`Title ${' '.repeat(20_000)}#${' '.repeat(20_000)}!`);
    expect(markdownTitle(`---\ntitle:${' '.repeat(20_000)}x\n---\nno heading`)).toBe('x');
  });

  it('600 KB of "](" gives no links and no title, at once', FAST, () => {
    const junk = ']('.repeat(300_000);
    expect(markdownLinks(junk, 'https://docs.example.com/')).toEqual([]);
    expect(markdownLinks(`[a](${'[a]('.repeat(150_000)}`, 'https://docs.example.com/')).toEqual([]);
    expect(markdownLinks(`${'<https://'.repeat(60_000)}`, 'https://docs.example.com/')).toEqual([]);
    expect(markdownTitle(`# ${'[a]('.repeat(150_000)}`)).toBe('[a]('.repeat(150_000));
    expect(markdownDescription(`A page about the widget API and its options: ${'[a]('.repeat(150_000)}`)).toBe('A page about the widget API and its options:…');
    const cut = markdownDescription(`A page about the widget API and its options: ${'[a](b '.repeat(100_000)}`) ?? '';
    expect(cut.length).toBeLessThanOrEqual(301);
    expect(cut).toMatch(/^A page about the widget API and its options: \[a\]\(b .*\(b…$/);
  });

  it('Markdown links of every usual form are still found', () => {
    const md = '[a](/a) [b]( <https://x.test/b> ) [c](/c "Title") [w](https://en.wikipedia.org/wiki/Foo_(bar)) <https://x.test/auto> ![i](/i.png)';
    expect(markdownLinks(md, 'https://docs.example.com/')).toEqual([
      'https://docs.example.com/a',
      'https://x.test/b',
      'https://docs.example.com/c',
      'https://en.wikipedia.org/wiki/Foo_(bar)',
      'https://docs.example.com/i.png',
      // The autolink inside `[b](<…>)` is found again by the autolink pattern, as before.
      'https://x.test/b',
      'https://x.test/auto',
    ]);
  });

  it('an llms.txt link line of 300 KB of tabs is parsed at once', FAST, () => {
    const tabs = '\t'.repeat(300_000);
    for (const line of [`- [a](${tabs}`, `- [a](/x${tabs}`, `- [${tabs}`, `${tabs}- [a](/x)`]) {
      const parsed = parseLlmsTxt(`# Site\n\n## Docs\n\n${line}\n- [b](/b): ok\n`, 'https://docs.example.com/llms.txt');
      expect(parsed.links.map((l) => l.url)).toContain('https://docs.example.com/b');
    }
  });

  it('an llms.txt link line just under the line budget, of tabs, is parsed at once', FAST, () => {
    const tabs = '\t'.repeat(3000);
    const parsed = parseLlmsTxt(`# Site\n\n## Docs\n\n- [a](${tabs}\n- [b](/b${tabs}"t"${tabs})\n`, 'https://docs.example.com/llms.txt');
    expect(parsed.links.map((l) => l.url)).toEqual(['https://docs.example.com/b']);
  });

  it('llms.txt links of every usual form are still read', () => {
    const parsed = parseLlmsTxt(
      '# Site\n\n## Docs\n\n- [A](/a): one\n-[B](<https://x.test/b>)\n  * [C [x]](/c "T") - three\n+ [D](https://en.wikipedia.org/wiki/Foo_(bar))\n- [E]( /e )\n',
      'https://docs.example.com/llms.txt',
    );
    expect(parsed.links.map((l) => [l.name, l.url, l.notes ?? ''])).toEqual([
      ['A', 'https://docs.example.com/a', 'one'],
      ['B', 'https://x.test/b', ''],
      ['C [x]', 'https://docs.example.com/c', 'three'],
      ['D', 'https://en.wikipedia.org/wiki/Foo_(bar)', ''],
      ['E', 'https://docs.example.com/e', ''],
    ]);
  });

  it('a line of unclosed code spans or of escaped brackets keeps its links lean, at once', FAST, () => {
    // Runs of 3, 4, … 1,000 backticks, none closed: as a backreference pattern each run re-read the
    // rest of the line (cubic); CommonMark's rule (a run closes at the next run of its length) is one pass.
    let runs = '';
    for (let i = 3; i <= 1000; i++) runs += `${'`'.repeat(i)}a`;
    const context = { origin: 'https://docs.example.com', inFile: () => false };
    const out = leanMarkdown(`See ${runs} [Guide](https://docs.example.com/guide/b) \`[x](https://docs.example.com/c)\` \`\`k\`\``, 'https://docs.example.com/guide/a', context);
    expect(out).toBe(`See ${runs} [Guide](b) \`[x](/c)\` \`\`k\`\``);
    // 100,000 escaped brackets: every `[` started a link whose text ran to the end of the line (8 s for 40,000 before).
    const brackets = '[\\'.repeat(100_000);
    expect(leanMarkdown(`See ${brackets} [Guide](https://docs.example.com/guide/b)`, 'https://docs.example.com/guide/a', context)).toBe(`See ${brackets} [Guide](b)`);
  });

  it('a model answer repeating "given page" with no full stop is read at once', FAST, () => {
    expect(cleanSummary(`The given page ${'given page '.repeat(50_000)}has no content.`)).toBeNull();
    expect(cleanSummary(`Explains the given page ${'given page '.repeat(50_000)}`)).toMatch(/^Explains the given page given page/);
    // Unclosed reasoning tags are left as text (as before), at once.
    expect(cleanSummary(`${'<think>'.repeat(50_000)}Lists the widget options.`)).toMatch(/^<think><think>/);
    expect(cleanSummary('<think>hmm</think>Lists the widget options.')).toBe('Lists the widget options.');
  });

  it('a path of 50,000 ".md" parts is stemmed at once', FAST, () => {
    expect(fileStem(`intro${'.md'.repeat(50_000)}y`)).toBe(`intro${'.md'.repeat(50_000)}y`);
    expect(fileStem(`intro${'.md'.repeat(50_000)}`)).toBe('intro');
    expect(fileStem('intro.html.md')).toBe('intro');
    expect(fileStem('v1.2')).toBe('v1.2');
  });

  it('a docsify sidebar item of 100,000 spaces before a line separator is read at once', FAST, () => {
    // U+2028 ends a line for `.` but not for the split: `\s+(.*)$` retried every split of the spaces.
    const nav = parseSidebar(`- ${' '.repeat(100_000)}x\u2028y\n- [Intro](guide/intro.md)\n`, 'https://docs.example.com/', {});
    expect(nav.map((n) => n.title)).toEqual(['x\u2028y', 'Intro']);
  });
});

describe('token counts of hostile text', () => {
  it('600 KB of "](" or 200,000 spaces are counted at once, close to the encoder’s own count', FAST, () => {
    // The encoder merges each run without a space as one piece, in time squared in its length.
    expect(countTokens(']('.repeat(300_000))).toBeGreaterThan(100_000);
    expect(countTokens(`#${' '.repeat(200_000)}x`)).toBeGreaterThan(0);
    const run = '](a'.repeat(2000);
    const cuts = Math.ceil(run.length / 256);
    expect(Math.abs(countTokens(run) - countO200k(run))).toBeLessThanOrEqual(cuts);
  });

  it('ordinary text counts exactly as the encoder does', () => {
    const prose = 'Scout reads a documentation site and writes its llms.txt. '.repeat(200);
    expect(countTokens(prose)).toBe(countO200k(prose));
    expect(countTokens('<|endoftext|> is plain text here')).toBe(countO200k('<|endoftext|> is plain text here', { disallowedSpecial: new Set() }));
  });
});

// The engine `scout generate` runs (lib/headless), over HTTP on loopback: a site made of every
// freezing input. Before, it never ended; the extension's run of the same site is
// tests/e2e/hostile-freeze.spec.ts.
describe('a site made to freeze Scout, crawled by the CLI’s engine', () => {
  let server: FixtureServer | undefined;
  afterAll(async () => server?.close());

  it('is discovered, crawled and generated, every page stored with its text', { timeout: 30_000 }, async () => {
    server = await startFixtureServer({ [FREEZE_HOST]: freezingSite() });
    const db = createDb(`freeze-${Math.random()}`);
    try {
      const started = performance.now();
      const result = await crawlSite({ db, startUrl: server.url(FREEZE_HOST, '/'), fetch: loopbackFetch(), rendering: true });
      const took = Math.round(performance.now() - started);
      expect(result.discovery.state).toBe('done');
      expect(result.crawlState).toBe('done');
      const pages = await db.pages.toArray();
      const byPath = new Map(pages.map((p) => [new URL(p.url).pathname, p]));
      expect([...byPath.keys()].sort()).toEqual(['/', '/docs/brackets.md', '/docs/escapes.md', '/docs/feff.html', '/docs/nbsp.html', '/docs/spaces.md']);
      expect(byPath.get('/docs/feff.html')?.markdown).toContain(`## Install${'\uFEFF'.repeat(40)} more`);
      expect(byPath.get('/docs/spaces.md')?.title).toBe('x');
      expect(result.generated?.output.llmsTxt).toContain('[Brackets]');
      console.log(`hostile-regex: the freezing site discovered, crawled and generated in ${took} ms (${JSON.stringify(result.ms)})`);
    } finally {
      await db.delete();
    }
  });
});
