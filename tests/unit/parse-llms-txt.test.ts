import { readdirSync, readFileSync } from 'node:fs';
import { describe, it, expect } from 'vitest';
import {
  isLlmsFileUrl,
  parseLlmsTxt,
  type LlmsWarningCode,
  type ParsedLlmsTxt,
} from '../../lib/discovery/parse-llms-txt';

// Real files, copied verbatim (their sources are in the README.md there).
const FIXTURES = new URL('../fixtures/llms-txt/', import.meta.url);
const BASE = 'https://docs.example.com/sub/llms.txt';
const fixtureNames = readdirSync(FIXTURES).filter((name) => name.endsWith('.txt')).sort();

function readFixture(name: string): string {
  return readFileSync(new URL(name, FIXTURES), 'utf8');
}
function parseFixture(name: string, base = BASE): ParsedLlmsTxt {
  return parseLlmsTxt(readFixture(name), base);
}
function codes(parsed: ParsedLlmsTxt): LlmsWarningCode[] {
  return parsed.warnings.map((w) => w.code);
}
function warningsOf(parsed: ParsedLlmsTxt, code: LlmsWarningCode): number[] {
  return parsed.warnings.filter((w) => w.code === code).map((w) => w.line);
}
function section(parsed: ParsedLlmsTxt, name: string) {
  const found = parsed.sections.find((s) => s.name === name);
  if (!found) throw new Error(`no section ${name}; have ${parsed.sections.map((s) => s.name).join(', ')}`);
  return found;
}
/** Lines of the details part that look like Markdown link items, counted independently of the parser. */
function linkLinesInDetails(parsed: ParsedLlmsTxt): number {
  return parsed.details.split('\n').filter((line) => /^- \[[^\]]+\]\([^)]+\)/.test(line)).length;
}

/**
 * Real files whose details part (before the first H2) lists links, and how many. Every other
 * fixture must have no detail links: their details are prose or plain bullets.
 */
const DETAIL_LINKS: Record<string, number> = {
  'archive-root.llms.txt': 4,
  'archive-nested-api.llms.txt': 4,
  'archive-nested-deep.llms.txt': 1,
  'archive-nested-sdk.llms.txt': 2,
  'copilotkit.llms.txt': 99,
  'langgraph.llms.txt': 140,
};

/**
 * Real files with no section links at all, and why. Every other fixture must yield links.
 * Files that list links straight under the H1 (no `## ` heading) have them in `detailLinks`, not
 * in `links`: spec-wise they have no sections, as the spec's reference parser reads them.
 */
const NO_SECTION_LINKS: Record<string, (parsed: ParsedLlmsTxt) => void> = {
  'archive-empty-index.llms.txt': (p) => {
    expect(p.details).toBe('This index has no document links.');
    expect(p.sections).toEqual([]);
  },
  'archive-root.llms.txt': (p) => expect(p.sections).toEqual([]),
  'archive-nested-api.llms.txt': (p) => expect(p.sections).toEqual([]),
  'archive-nested-deep.llms.txt': (p) => expect(p.sections).toEqual([]),
  'archive-nested-sdk.llms.txt': (p) => expect(p.sections).toEqual([]),
  'copilotkit.llms.txt': (p) => expect(p.sections).toEqual([]),
  // H1s used as sections: "# Guides" becomes the title; "# Examples"/"# Resources" are extra H1s.
  'langgraph.llms.txt': (p) => {
    expect(p.sections).toEqual([]);
    expect(warningsOf(p, 'multiple-h1')).toEqual([120, 135]);
  },
  // Sections hold plain list items ("Docs: https://…") and unfenced code, never Markdown links.
  'litellm.llms.txt': (p) => {
    expect(p.sections.map((s) => s.name)).toEqual(['For AI Agents', 'Quick Start', 'Key Features', 'Links']);
    expect(warningsOf(p, 'empty-section')).toEqual([6, 11, 15, 21]);
    expect(warningsOf(p, 'non-link-line')).toEqual([7, 12, 16, 22]);
  },
};

describe('parseLlmsTxt on every real fixture', () => {
  it('finds the fixture files', () => {
    expect(fixtureNames.length).toBeGreaterThanOrEqual(20);
    for (const name of Object.keys(NO_SECTION_LINKS)) expect(fixtureNames).toContain(name);
    for (const name of Object.keys(DETAIL_LINKS)) expect(fixtureNames).toContain(name);
  });

  it.each(fixtureNames)('%s parses with a title and links that are absolute URLs', (name) => {
    const text = readFixture(name);
    let parsed: ParsedLlmsTxt | undefined;
    expect(() => {
      parsed = parseLlmsTxt(text, BASE);
    }).not.toThrow();
    if (!parsed) throw new Error('not parsed');
    expect(parsed.title).not.toBeNull();
    expect(parsed.title).not.toBe('');
    expect(codes(parsed)).not.toContain('missing-h1');
    const special = NO_SECTION_LINKS[name];
    if (special) {
      expect(parsed.links).toEqual([]);
      special(parsed);
    } else {
      expect(parsed.links.length).toBeGreaterThan(0);
    }
    const lineCount = text.split('\n').length;
    for (const link of parsed.links) {
      expect(() => new URL(link.url)).not.toThrow();
      expect(link.line).toBeGreaterThanOrEqual(1);
      expect(link.line).toBeLessThanOrEqual(lineCount);
    }
    for (const warning of parsed.warnings) expect(warning.line).toBeLessThanOrEqual(lineCount);
    expect(parsed.links).toEqual(parsed.sections.flatMap((s) => s.links));
    // Detail links: the real count, the same as an independent count of the details' link lines,
    // absolute, never optional, and all before the first section.
    expect(parsed.detailLinks).toHaveLength(DETAIL_LINKS[name] ?? 0);
    expect(parsed.detailLinks).toHaveLength(linkLinesInDetails(parsed));
    const firstSection = parsed.sections[0]?.line ?? lineCount + 1;
    for (const link of parsed.detailLinks) {
      expect(() => new URL(link.url)).not.toThrow();
      expect(link.optional).toBe(false);
      expect(link.line).toBeGreaterThanOrEqual(1);
      expect(link.line).toBeLessThan(firstSection);
    }
  });
});

describe('parseLlmsTxt facts from real files', () => {
  it('llmstxt.org’s own file: title, summary, one Docs section, no warnings', () => {
    const p = parseFixture('llmstxt-org.llms.txt');
    expect(p.title).toBe('llms.txt');
    expect(p.summary).toMatch(/^A proposal that those interested in providing LLM-friendly content add a \/llms\.txt file/);
    expect(p.details).toBe('');
    expect(p.sections.map((s) => [s.name, s.line, s.links.length])).toEqual([['Docs', 5, 3]]);
    expect(p.links[0]).toEqual({
      name: 'llms.txt proposal',
      url: 'https://llmstxt.org/index-commonmark.md',
      rawUrl: 'https://llmstxt.org/index-commonmark.md',
      notes: 'The proposal for llms.txt',
      line: 7,
      optional: false,
    });
    expect(p.warnings).toEqual([]);
  });

  it('the spec sample: details paragraph, Optional section flagged, link without notes', () => {
    const p = parseFixture('llmstxt-org-sample.llms.txt');
    expect(p.details).toMatch(/^FastHTML is written by Answer\.AI, .* fast\.ai style\.$/);
    expect(p.sections.map((s) => [s.name, s.links.length, s.optional])).toEqual([
      ['Docs', 3, false],
      ['Examples', 1, false],
      ['Optional', 1, true],
    ]);
    expect(p.links.map((l) => l.optional)).toEqual([false, false, false, false, true]);
    const starlette = p.links.find((l) => l.name === 'Starlette quick guide');
    expect(starlette?.notes).toBeUndefined();
    expect(starlette?.url).toMatch(/^https:\/\/gist\.githubusercontent\.com\/.*\/starlette-quick\.md$/);
    expect(p.warnings).toEqual([]);
  });

  it('FastHTML: 13 optional links, bullet notes stay in details without warnings, no final newline', () => {
    const p = parseFixture('fasthtml.llms.txt');
    expect(p.sections.map((s) => `${s.name}:${s.links.length}`)).toEqual(['Docs:5', 'API:1', 'Examples:2', 'Optional:13']);
    const optional = section(p, 'Optional');
    expect(optional.links.every((l) => l.optional)).toBe(true);
    expect(p.links.filter((l) => l.optional)).toHaveLength(13);
    expect(p.details.startsWith('Things to remember when writing FastHTML apps:')).toBe(true);
    expect(p.details).toContain('- Use `serve()` for running uvicorn');
    expect(p.warnings).toEqual([]);
    // The last line has no trailing newline; its notes must still be whole.
    expect(p.links.at(-1)).toMatchObject({
      name: 'Live Reloading',
      url: 'https://docs.fastht.ml/ref/live_reload.html',
      notes: 'Explanation of how to use live reloading for FastHTML development.',
      line: 44,
    });
    expect(section(p, 'API').links[0]?.url).toBe('https://docs.fastht.ml/apilist.txt');
  });

  it('OpenAI root: 105 sections, 614 links, 16 nested llms files, one duplicate', () => {
    const p = parseFixture('openai-root.llms.txt');
    expect(p.title).toBe('OpenAI Developers');
    expect(p.summary).toBe('Documentation hub for OpenAI API, Ads, Apps SDK, Workspace Agents, Codex, and Agentic Commerce.');
    expect(p.details).toBe('Each section links to Markdown twins under the product path (e.g., `/apps-sdk/<slug>.md`).');
    expect(p.sections).toHaveLength(105);
    expect(p.links).toHaveLength(614);
    const sets = section(p, 'Documentation sets');
    expect(sets.links).toHaveLength(17);
    expect(sets.links.filter((l) => isLlmsFileUrl(l.url))).toHaveLength(16);
    expect(sets.links.filter((l) => l.notes === undefined)).toHaveLength(16);
    expect(section(p, 'OpenAI API — Docs').links).toHaveLength(165);
    // apps-sdk/reference.md is listed in "Documentation sets" (line 24) and again at line 515.
    expect(p.warnings.map((w) => [w.code, w.line])).toEqual([['duplicate-link', 515]]);
    expect(p.warnings[0]?.message).toContain('line 24');
  });

  it('OpenAI API: 3 sections, 382 links, two prose lines as details', () => {
    const p = parseFixture('openai-api.llms.txt');
    expect(p.sections.map((s) => s.name)).toEqual(['Documentation sets', 'Docs', 'Reference']);
    expect(p.links).toHaveLength(382);
    expect(p.details.split('\n')).toEqual([
      'Guides and conceptual docs are available at `/api/docs/<slug>.md`.',
      'Reference docs are available at `/api/reference/<slug>.md`.',
    ]);
    expect(section(p, 'Documentation sets').links.map((l) => l.url)).toEqual([
      'https://developers.openai.com/api/llms-full.txt',
      'https://developers.openai.com/api/docs/llms.txt',
      'https://developers.openai.com/api/docs/llms-full.txt',
      'https://developers.openai.com/api/reference/llms.txt',
      'https://developers.openai.com/api/reference/llms-full.txt',
    ]);
    expect(p.warnings).toEqual([]);
  });

  it('OpenAI nested indexes: section and link counts', () => {
    const codex = parseFixture('openai-codex.llms.txt');
    expect([codex.sections.length, codex.links.length]).toEqual([43, 81]);
    const ads = parseFixture('openai-ads.llms.txt');
    expect([ads.sections.length, ads.links.length]).toEqual([14, 21]);
    expect(section(ads, 'Api Reference').links).toHaveLength(8);
    expect(section(ads, 'Supported Events').links[0]?.notes).toBe('Supported conversion events & data shapes.');
    const agents = parseFixture('openai-workspace-agents.llms.txt');
    expect(agents.sections.map((s) => s.links.length)).toEqual([1, 1, 1]);
    expect(agents.warnings).toEqual([]);
  });

  it('OpenAI Apps SDK: the same reference.md twice gives one duplicate-link warning', () => {
    const p = parseFixture('openai-apps-sdk.llms.txt');
    expect(p.sections).toHaveLength(10);
    expect(p.warnings.map((w) => [w.code, w.line])).toEqual([['duplicate-link', 51]]);
    // Both occurrences are kept: each belongs to its own section.
    expect(p.links.filter((l) => l.url === 'https://developers.openai.com/apps-sdk/reference.md').map((l) => l.line)).toEqual([9, 51]);
  });

  it('OpenAI cookbook: non-ASCII titles, ":" inside link text, links without notes', () => {
    const p = parseFixture('openai-cookbook.llms.txt');
    expect(p.links).toHaveLength(98);
    const names = p.links.map((l) => l.name);
    expect(names).toContain('Automate Jira ↔ GitHub with Codex');
    expect(names).toContain('Practical Guide for Model Selection for Real\u2011World Use Cases');
    const schemaflow = p.links.find((l) => l.name.startsWith('SchemaFlow: '));
    expect(schemaflow?.name).toBe('SchemaFlow: Agentic Database Change Impact Analysis, SQL Generation, and Eval Guardrails');
    expect(schemaflow?.notes).toMatch(/^Build a staged SchemaFlow pipeline/);
    expect(p.links.filter((l) => l.notes === undefined)).toHaveLength(52);
  });

  it('mock file: root-relative links resolve against the file URL; prose sections warn', () => {
    const p = parseFixture('mock-llms.txt');
    expect(p.summary).toBeNull();
    expect(p.details).toBe('This is a mock llms.txt file for testing purposes.');
    expect(section(p, 'Links').links.map((l) => [l.rawUrl, l.url])).toEqual([
      ['/docs', 'https://docs.example.com/docs'],
      ['/api', 'https://docs.example.com/api'],
      ['/examples', 'https://docs.example.com/examples'],
    ]);
    expect(p.links.every((l) => l.notes === undefined)).toBe(true);
    expect(p.warnings.map((w) => [w.code, w.line])).toEqual([
      ['empty-section', 5],
      ['non-link-line', 7],
      ['empty-section', 15],
      ['non-link-line', 17],
    ]);
    expect(p.warnings[1]?.message).toBe('Line 7 is not a link in section “About”: sections should only list links.');
    const other = parseFixture('mock-llms.txt', 'http://localhost:8080/a/b/llms.txt');
    expect(other.links[0]?.url).toBe('http://localhost:8080/docs');
  });

  it('Instructor: README-style file; fenced "# comment" lines are not H1s; anchors resolve', () => {
    const p = parseFixture('instructor.llms.txt');
    expect(p.title).toBe('Instructor: Type-Safe Structured Outputs from LLMs');
    expect(p.summary).toBeNull();
    expect(p.sections.map((s) => s.name)).toEqual([
      'Table of Contents', 'Installation', 'Core Concept', 'Supported Providers', 'Key Features', 'Advanced Usage', 'Examples',
    ]);
    const toc = section(p, 'Table of Contents');
    expect(toc.links).toHaveLength(32);
    expect(toc.links[1]).toMatchObject({ name: 'Table of Contents', rawUrl: '#table-of-contents', url: `${BASE}#table-of-contents`, line: 8 });
    // Nested, indented list items still count as links.
    expect(toc.links.find((l) => l.name === 'Groq')?.line).toBe(17);
    expect(codes(p)).not.toContain('multiple-h1');
    expect(warningsOf(p, 'h3-in-section')).toHaveLength(24);
    expect(warningsOf(p, 'empty-section')).toEqual([40, 65, 95, 192, 471, 600]);
    const codeBlock = p.warnings.find((w) => w.line === 48);
    expect(codeBlock?.message).toBe('Lines 48–63 are a code block in section “Installation”: sections should only list links.');
  });

  it('nested hub: links straight under the H1 are detailLinks, and point to the nested llms.txt files', () => {
    const root = parseFixture('archive-root.llms.txt');
    expect(root.title).toBe('Example Project');
    expect(root.summary).toBe('Documentation index for Example Project.');
    expect(root.links).toEqual([]);
    expect(root.detailLinks.map((l) => [l.name, l.line])).toEqual([
      ['Getting Started', 5], ['API Reference', 6], ['API Index', 7], ['SDK Index', 8],
    ]);
    expect(root.detailLinks.filter((l) => isLlmsFileUrl(l.url)).map((l) => l.url)).toEqual([
      'https://example.com/api/llms.txt',
      'https://example.com/sdk/llms.txt',
    ]);
    expect(root.warnings).toEqual([]);
    const api = parseFixture('archive-nested-api.llms.txt', 'https://example.com/api/llms.txt');
    expect(api.detailLinks.filter((l) => isLlmsFileUrl(l.url)).map((l) => l.url)).toEqual(['https://example.com/api/v2/llms.txt']);
    expect(parseFixture('archive-nested-deep.llms.txt').detailLinks[0]).toEqual({
      name: 'Migration Guide', url: 'https://example.com/docs/api-v2-migration.md', rawUrl: 'https://example.com/docs/api-v2-migration.md', line: 3, optional: false,
    });
  });

  it('CopilotKit: 99 detail links with notes, repeated URLs kept without warnings', () => {
    const p = parseFixture('copilotkit.llms.txt');
    expect(p.detailLinks).toHaveLength(99);
    expect(new Set(p.detailLinks.map((l) => l.url)).size).toBe(95);
    expect(p.detailLinks.every((l) => l.notes !== undefined)).toBe(true);
    expect(p.detailLinks.map((l) => l.line)).toEqual(Array.from({ length: 99 }, (_, i) => i + 3));
    expect(p.detailLinks[0]).toMatchObject({ name: 'CopilotKit Documentation', url: 'https://docs.copilotkit.ai/', notes: 'Explore tools for building AI copilots and agents.' });
    expect(p.warnings).toEqual([]);
  });

  it('LangGraph: 140 detail links across the "# Guides", "# Examples" and "# Resources" H1s', () => {
    const p = parseFixture('langgraph.llms.txt');
    expect(p.title).toBe('Guides');
    expect(p.detailLinks).toHaveLength(140);
    expect(p.detailLinks[0]).toMatchObject({ name: 'LangGraph Documentation', url: 'https://langchain-ai.github.io/langgraph/index/', line: 4 });
    expect(p.detailLinks.filter((l) => l.line > 120 && l.line < 135)).toHaveLength(12);
    expect(p.detailLinks.filter((l) => l.line > 135)).toHaveLength(13);
    expect(p.detailLinks.at(-1)?.line).toBe(149);
  });

  it('TresJS: title and summary on one H1 line are kept as the title; no blockquote', () => {
    const p = parseFixture('tresjs.llms.txt');
    expect(p.title).toMatch(/^TresJS Docs > TresJS is an open source framework .* with confidence\.$/);
    expect(p.summary).toBeNull();
    expect(p.sections.map((s) => `${s.name}:${s.links.length}`)).toEqual(['Documentation Sets:1', 'Docs:13']);
    expect(p.links[0]?.url).toBe('https://tresjs.org/llms-full.txt');
    // The file ends in a trailing space and no newline.
    expect(p.links.at(-1)).toMatchObject({ url: 'https://tresjs.org/cookbook/', notes: 'Collection of common patterns and solutions.' });
    expect(p.warnings).toEqual([]);
  });

  it('LiteLLM: summary read even with no blank line after the H1', () => {
    const p = parseFixture('litellm.llms.txt');
    expect(p.title).toBe('LiteLLM');
    expect(p.summary).toBe('Unified API for 100+ LLMs');
    expect(p.details).toMatch(/^LiteLLM provides a unified interface/);
  });

  it('CopilotKit llms-full: scraped pages parse; H2 names keep their Markdown; repeated links warn', () => {
    const p = parseFixture('copilotkit.llms-full.txt');
    expect(p.title).toBe('http://docs.copilotkit.ai llms-full.txt');
    expect(p.sections).toHaveLength(158);
    expect(p.sections[1]?.name).toBe('[Standard](https://docs.copilotkit.ai/\\#standard)');
    expect(p.links.map((l) => l.line)).toEqual([356, 357, 757, 758, 3446, 3447]);
    expect(warningsOf(p, 'duplicate-link')).toEqual([3446, 3447]);
    expect(warningsOf(p, 'multiple-h1').length).toBeGreaterThan(40);
    expect(p.links[2]?.name).toBe('`CopilotRuntime` Reference');
  });
});

describe('parseLlmsTxt on crafted input', () => {
  const parse = (text: string, base = BASE) => parseLlmsTxt(text, base);

  it('reads a minimal spec file with no warnings', () => {
    const p = parse('# Proj\n\n> Short summary.\n\nSome details.\n\n## Docs\n\n- [Guide](guide.md): How to start\n');
    expect(p).toEqual({
      title: 'Proj',
      summary: 'Short summary.',
      details: 'Some details.',
      sections: [{ name: 'Docs', line: 7, optional: false, links: [p.links[0]] }],
      links: [{ name: 'Guide', url: 'https://docs.example.com/sub/guide.md', rawUrl: 'guide.md', notes: 'How to start', line: 9, optional: false }],
      detailLinks: [],
      warnings: [],
    });
  });

  it('a title-only file is valid', () => {
    const p = parse('# Only a name');
    expect(p.title).toBe('Only a name');
    expect(p.warnings).toEqual([]);
  });

  it('strips a UTF-8 BOM before the H1', () => {
    const p = parse('\uFEFF# Bom\n## Docs\n- [a](https://a.example/)');
    expect(p.title).toBe('Bom');
    expect(p.warnings).toEqual([]);
    expect(p.links[0]?.line).toBe(3);
  });

  it('handles CRLF line endings', () => {
    const p = parse('# Win\r\n\r\n> Sum\r\n\r\nLine one\r\nLine two\r\n## Docs\r\n- [a](a.md): note\r\n- [b](b.md)\r\n');
    expect(p.title).toBe('Win');
    expect(p.summary).toBe('Sum');
    expect(p.details).toBe('Line one\nLine two');
    expect(p.links.map((l) => [l.name, l.url, l.notes, l.line])).toEqual([
      ['a', 'https://docs.example.com/sub/a.md', 'note', 8],
      ['b', 'https://docs.example.com/sub/b.md', undefined, 9],
    ]);
    expect(p.links.some((l) => /\r/.test(l.rawUrl + l.name + (l.notes ?? '')))).toBe(false);
  });

  it('reads notes with or without a space after the colon, and lenient bullets', () => {
    const p = parse('# T\n## S\n- [a](/a): spaced\n- [b](/b):tight\n* [c](/c) : star\n-[d](/d)\n  - [e](/e)\n+ [f](/f)');
    expect(p.links.map((l) => [l.name, l.notes])).toEqual([
      ['a', 'spaced'],
      ['b', 'tight'],
      ['c', 'star'],
      ['d', undefined],
      ['e', undefined],
      ['f', undefined],
    ]);
    expect(p.warnings).toEqual([]);
  });

  it('keeps ":" in link names and notes, and handles <url>, parentheses and backslash escapes', () => {
    const p = parse('# T\n## S\n- [A: B](<x y.md>): note: more\n- [Wiki](https://w.example/Foo_(bar)): w\n- [Esc](https://e.example/\\#frag)');
    expect(p.links.map((l) => [l.name, l.rawUrl, l.url, l.notes])).toEqual([
      ['A: B', 'x y.md', 'https://docs.example.com/sub/x%20y.md', 'note: more'],
      ['Wiki', 'https://w.example/Foo_(bar)', 'https://w.example/Foo_(bar)', 'w'],
      ['Esc', 'https://e.example/\\#frag', 'https://e.example/#frag', undefined],
    ]);
  });

  it('resolves relative links against the file URL', () => {
    const p = parse('# T\n## S\n- [a](page.md)\n- [b](../up.md)\n- [c](/root.md)\n- [d](//cdn.example/x)\n- [e](#top)');
    expect(p.links.map((l) => l.url)).toEqual([
      'https://docs.example.com/sub/page.md',
      'https://docs.example.com/up.md',
      'https://docs.example.com/root.md',
      'https://cdn.example/x',
      'https://docs.example.com/sub/llms.txt#top',
    ]);
  });

  it('ignores headings and links inside ``` and ~~~ fences', () => {
    const text = [
      '# T', // 1
      '```md', // 2
      '# Not a title', // 3
      '## Not a section', // 4
      '```', // 5
      '## Docs', // 6
      '- [real](/real)', // 7
      '~~~', // 8
      '## fake', // 9
      '- [fake](/fake)', // 10
      '```', // 11: a backtick run does not close a ~~~ fence
      '~~~~', // 12
      '- [after](/after)', // 13
    ].join('\n');
    const p = parse(text);
    expect(p.title).toBe('T');
    expect(p.sections.map((s) => s.name)).toEqual(['Docs']);
    expect(p.links.map((l) => l.name)).toEqual(['real', 'after']);
    expect(p.details).toBe('```md\n# Not a title\n## Not a section\n```');
    expect(p.warnings.map((w) => [w.code, w.line])).toEqual([['non-link-line', 8]]);
    expect(p.warnings[0]?.message).toBe('Lines 8–12 are a code block in section “Docs”: sections should only list links.');
  });

  it('an unclosed fence swallows the rest of the file without throwing', () => {
    const p = parse('# T\n## Docs\n```\n## Hidden\n- [x](/x)');
    expect(p.sections.map((s) => s.name)).toEqual(['Docs']);
    expect(p.links).toEqual([]);
    expect(codes(p)).toEqual(['empty-section', 'non-link-line']);
  });

  it('joins a multi-line summary blockquote', () => {
    const p = parse('# T\n> first line\n> second line\n>\n> third\n\nDetails.\n## S\n- [a](/a)');
    expect(p.summary).toBe('first line second line third');
    expect(p.details).toBe('Details.');
    expect(p.warnings).toEqual([]);
  });

  it('missing-h1: garbage text', () => {
    const p = parse('just some words\nand more\n');
    expect(p.title).toBeNull();
    expect(p.warnings.map((w) => [w.code, w.line])).toEqual([['missing-h1', 1]]);
    expect(p.details).toBe('just some words\nand more');
  });

  it('missing-h1: an HTML page served instead of llms.txt', () => {
    const html = '<!DOCTYPE html>\n<html><head><title>404</title></head>\n<body><h1>Not found</h1><a href="/">home</a></body></html>';
    const p = parse(html);
    expect(p.title).toBeNull();
    expect(codes(p)).toEqual(['missing-h1']);
    expect(p.links).toEqual([]);
  });

  it('never throws on binary-ish input, odd bases or huge lines', () => {
    const inputs = [
      '\u0000\u0001\u0002\uFFFD\uD800# x\n## \u0000\n- [\u0000](\u0000)',
      '#'.repeat(50_000),
      `# T\n## S\n- [${'a]('.repeat(20_000)}`,
      `# ${' '.repeat(50_000)}x`,
      '\r\r\r\n\n\r',
      '- [a](b)\n'.repeat(2000),
    ];
    for (const input of inputs) {
      for (const base of [BASE, '', 'not a url', 'file:///tmp/llms.txt']) {
        expect(() => parseLlmsTxt(input, base)).not.toThrow();
      }
    }
    expect(parseLlmsTxt('#'.repeat(50_000), BASE).warnings.map((w) => w.code)).toEqual(['missing-h1']);
  });

  it('empty-file: empty or whitespace-only text, with or without a BOM', () => {
    for (const text of ['', '   \n\n\t', '\uFEFF', '\r\n\r\n']) {
      const p = parse(text);
      expect(p.warnings.map((w) => [w.code, w.line])).toEqual([['empty-file', 1]]);
      expect(p.title).toBeNull();
      expect(p.sections).toEqual([]);
    }
  });

  it('multiple-h1: a second H1, before or after the first section', () => {
    const p = parse('# One\n\n# Two\n## S\n- [a](/a)\n# Three');
    expect(p.title).toBe('One');
    expect(p.warnings.map((w) => [w.code, w.line])).toEqual([
      ['multiple-h1', 3],
      ['multiple-h1', 6],
    ]);
  });

  it('h1-not-first: text before the title (blank lines before it are fine)', () => {
    expect(parse('\n\n# Fine\n').warnings).toEqual([]);
    const p = parse('intro line\n# Late\n> Sum\n## S\n- [a](/a)');
    expect(p.title).toBe('Late');
    expect(p.summary).toBe('Sum');
    expect(p.details).toBe('');
    expect(p.warnings.map((w) => [w.code, w.line])).toEqual([['h1-not-first', 2]]);
  });

  it('multiple-blockquotes: a second, separate quote block before the first H2', () => {
    const p = parse('# T\n> Summary\n\nSome text.\n\n> Another quote\n> continued\n## S\n- [a](/a)');
    expect(p.summary).toBe('Summary');
    expect(p.warnings.map((w) => [w.code, w.line])).toEqual([['multiple-blockquotes', 6]]);
    // A single quote that is not right after the title is just details: nothing to warn about.
    expect(parse('# T\n\nText.\n\n> A quote\n## S\n- [a](/a)').warnings).toEqual([]);
  });

  it('non-link-line: prose and non-link list items in a section, grouped by paragraph', () => {
    const p = parse('# T\n## Docs\n- [a](/a)\nSome prose\nmore prose\n\n- Plain item: https://x.example\n- [b](/b)');
    expect(p.links).toHaveLength(2);
    expect(p.warnings.map((w) => [w.code, w.line])).toEqual([
      ['non-link-line', 4],
      ['non-link-line', 7],
    ]);
    expect(p.warnings[0]?.message).toBe('Lines 4–5 are not links in section “Docs”: sections should only list links.');
    expect(p.warnings[1]?.message).toBe('Line 7 is not a link in section “Docs”: sections should only list links.');
  });

  it('does not warn about prose or links in the details part; its links go to detailLinks only', () => {
    const p = parse('# T\n> S\n\nA paragraph.\n- [in details](/x)\n- a list\n\n### Sub heading\n## Docs\n- [a](/a)');
    expect(p.warnings).toEqual([]);
    expect(p.links.map((l) => l.name)).toEqual(['a']);
    expect(p.details).toContain('- [in details](/x)');
    expect(p.detailLinks).toEqual([{ name: 'in details', url: 'https://docs.example.com/x', rawUrl: '/x', line: 5, optional: false }]);
  });

  it('detailLinks: same link syntax and URL resolution as sections, never optional', () => {
    const text = [
      '# T', // 1
      '> Summary', // 2
      '- [sum](/in-summary-line)', // 3: right after the quote, details start here
      'Prose with an inline [link](/inline) is not a list item.', // 4
      '* [star](page.md): notes here', // 5
      '  - [nested](<a b.md>)', // 6
      '-[tight](../up.md):tight', // 7
      '- [Esc](https://e.example/\\#frag)', // 8
      '```', // 9
      '- [fenced](/fenced)', // 10
      '```', // 11
      '> - [quoted](/quoted)', // 12
      '# Second H1', // 13
      '- [after h1](#top)', // 14
      '## Optional', // 15
      '- [opt](/opt)', // 16
    ].join('\n');
    const p = parse(text);
    expect(p.detailLinks.map((l) => [l.name, l.url, l.notes, l.line, l.optional])).toEqual([
      ['sum', 'https://docs.example.com/in-summary-line', undefined, 3, false],
      ['star', 'https://docs.example.com/sub/page.md', 'notes here', 5, false],
      ['nested', 'https://docs.example.com/sub/a%20b.md', undefined, 6, false],
      ['tight', 'https://docs.example.com/up.md', 'tight', 7, false],
      ['Esc', 'https://e.example/#frag', undefined, 8, false],
      ['after h1', 'https://docs.example.com/sub/llms.txt#top', undefined, 14, false],
    ]);
    expect(p.links.map((l) => [l.name, l.optional])).toEqual([['opt', true]]);
    expect(p.warnings.map((w) => [w.code, w.line])).toEqual([['multiple-blockquotes', 12], ['multiple-h1', 13]]);
  });

  it('detailLinks: bad targets are skipped silently and repeats never warn', () => {
    const p = parse('# T\n- [bad](https://[oops)\n- [none]()\n- [a](/same)\n- [b](/same)\n## S\n- [c](/same)\n- [d](/same)');
    expect(p.detailLinks.map((l) => [l.name, l.line])).toEqual([['a', 4], ['b', 5]]);
    // Only the section repeat warns, against the section's own first occurrence.
    expect(p.warnings.map((w) => [w.code, w.line])).toEqual([['duplicate-link', 8]]);
    expect(p.warnings[0]?.message).toContain('line 7');
    expect(parse('# T\n- [rel](page.md)\n- [abs](https://abs.example/)', 'not a url').detailLinks.map((l) => l.url))
      .toEqual(['https://abs.example/']);
  });

  it('detailLinks: lines before the H1 are not details; with no H1 the whole preamble is', () => {
    const late = parse('- [before](/before)\n# Late\n- [after](/after)');
    expect(late.detailLinks.map((l) => l.name)).toEqual(['after']);
    expect(codes(late)).toEqual(['h1-not-first']);
    const untitled = parse('- [a](/a)\n- [b](/b)\n## S\n- [c](/c)');
    expect(untitled.detailLinks.map((l) => l.name)).toEqual(['a', 'b']);
    expect(untitled.links.map((l) => l.name)).toEqual(['c']);
    expect(codes(untitled)).toEqual(['missing-h1']);
  });

  it('h3-in-section: sub-headings inside a section', () => {
    const p = parse('# T\n## Docs\n### Part\n- [a](/a)\n#### Deeper\n- [b](/b)');
    expect(p.links.map((l) => l.name)).toEqual(['a', 'b']);
    expect(p.warnings.map((w) => [w.code, w.line])).toEqual([
      ['h3-in-section', 3],
      ['h3-in-section', 5],
    ]);
    expect(p.warnings[0]?.message).toContain('section “Docs”');
  });

  it('duplicate-link: same resolved URL twice, warned on the second', () => {
    const p = parse('# T\n## A\n- [a](/same.md)\n- [b](https://docs.example.com/same.md)\n## B\n- [c](../same.md)\n- [d](/other.md)');
    expect(p.links).toHaveLength(4);
    expect(p.warnings.map((w) => [w.code, w.line])).toEqual([
      ['duplicate-link', 4],
      ['duplicate-link', 6],
    ]);
    expect(p.warnings[0]?.message).toContain('line 3');
  });

  it('empty-section: an H2 with no links, including an empty Optional', () => {
    const p = parse('# T\n## Empty\n\n## optional\n## Full\n- [a](/a)');
    expect(p.sections.map((s) => [s.name, s.optional])).toEqual([
      ['Empty', false],
      ['optional', true],
      ['Full', false],
    ]);
    expect(p.warnings.map((w) => [w.code, w.line])).toEqual([
      ['empty-section', 2],
      ['empty-section', 4],
    ]);
  });

  it('Optional is case-insensitive and only marks its own links', () => {
    const p = parse('# T\n## Docs\n- [a](/a)\n## OPTIONAL\n- [b](/b)\n## More\n- [c](/c)');
    expect(p.links.map((l) => [l.name, l.optional])).toEqual([
      ['a', false],
      ['b', true],
      ['c', false],
    ]);
  });

  it('invalid-url: unparseable or empty targets, and relative links with an unusable base', () => {
    const p = parse('# T\n## S\n- [bad](https://[oops)\n- [none]()\n- [ok](https://ok.example/)');
    expect(p.links.map((l) => l.name)).toEqual(['ok']);
    expect(p.warnings.map((w) => [w.code, w.line])).toEqual([
      ['invalid-url', 3],
      ['invalid-url', 4],
    ]);
    expect(p.warnings[0]?.message).toContain('https://[oops');
    const noBase = parse('# T\n## S\n- [rel](page.md)\n- [abs](https://abs.example/x)', 'not a url');
    expect(noBase.links.map((l) => l.url)).toEqual(['https://abs.example/x']);
    expect(codes(noBase)).toEqual(['invalid-url']);
  });

  it('sorts warnings by line', () => {
    const p = parse('# T\n## A\ntext\n## B\n- [a](/a)');
    expect(p.warnings.map((w) => w.line)).toEqual([2, 3]);
  });
});

describe('isLlmsFileUrl', () => {
  it.each([
    'https://example.com/llms.txt',
    'https://example.com/docs/llms.txt',
    'https://example.com/llms-full.txt',
    'https://example.com/llms-ctx.txt',
    'https://example.com/llms-ctx-full.txt',
    'https://example.com/api/llms-small.txt',
    'https://example.com/llms.md',
    'https://example.com/llms.mdx',
    'https://example.com/llms.markdown',
    'https://example.com/llms/api.txt',
    'https://example.com/docs/llms/v2/reference.txt',
    'https://example.com/llms.txt?v=2#top',
    'http://localhost:3000/LLMS.TXT',
    '/docs/llms.txt',
  ])('accepts %s', (url) => {
    expect(isLlmsFileUrl(url)).toBe(true);
  });

  it.each([
    'https://example.com/robots.txt',
    'https://example.com/docs/readme.txt',
    'https://example.com/llms.txt.bak',
    'https://example.com/llms.txt/',
    'https://example.com/llms-.txt',
    'https://example.com/llmstxt.txt',
    'https://example.com/my-llms.txt',
    'https://example.com/llms-full.md',
    'https://example.com/llms/api.md',
    'https://example.com/llms/',
    'https://example.com/page?file=llms.txt',
    'https://example.com/page#llms.txt',
    'ftp://example.com/llms.txt',
    'http://[bad/llms.txt',
    '',
  ])('rejects %s', (url) => {
    expect(isLlmsFileUrl(url)).toBe(false);
  });
});
