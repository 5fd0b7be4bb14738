import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLinks, validateLlmsTxt, type Finding } from '@/lib/generate/validate';
import { loopbackFetch, startFixtureServer, type FixtureServer } from '../fixtures/server';

// Real files, copied verbatim (their sources are in the README.md there).
const FIXTURES = new URL('../fixtures/llms-txt/', import.meta.url);
const BASE = 'https://docs.example.com/sub/llms.txt';
const fixtureNames = readdirSync(FIXTURES).filter((name) => name.endsWith('.txt')).sort();
const lint = (text: string, url = BASE) => validateLlmsTxt(text, url);
const lintFixture = (name: string) => lint(readFileSync(new URL(name, FIXTURES), 'utf8'));
/** "severity:code" → lines, for compact assertions. */
function summary(findings: Finding[]): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const f of findings) (out[`${f.severity}:${f.code}`] ??= []).push(f.line);
  return out;
}
const codes = (findings: Finding[]) => findings.map((f) => f.code);

describe('validateLlmsTxt on real files', () => {
  it.each(fixtureNames)('%s: findings sorted by line, each with a message naming its line', (name) => {
    const findings = lintFixture(name);
    expect(findings.map((f) => f.line)).toEqual([...findings.map((f) => f.line)].sort((a, b) => a - b));
    for (const f of findings) {
      expect(f.line).toBeGreaterThanOrEqual(1);
      expect(['error', 'warning', 'info']).toContain(f.severity);
      expect(f.message.length).toBeGreaterThan(20);
    }
  });

  it('finds nothing in files that follow the spec', () => {
    for (const name of ['llmstxt-org.llms.txt', 'llmstxt-org-sample.llms.txt', 'fasthtml.llms.txt', 'openai-api.llms.txt', 'openai-codex.llms.txt', 'openai-cookbook.llms.txt']) {
      expect(lintFixture(name), name).toEqual([]);
    }
  });

  it('litellm: list lines that are not links are errors (the reference parser raises on them)', () => {
    expect(summary(lintFixture('litellm.llms.txt'))).toEqual({
      'warning:empty-section': [6, 11, 15, 21],
      'error:non-link-line': [7, 12, 16, 22],
    });
  });

  it('tresjs: the summary written on the title line', () => {
    const findings = lintFixture('tresjs.llms.txt');
    expect(summary(findings)).toEqual({ 'warning:summary-in-title': [1] });
    expect(findings[0]?.message).toMatch(/line 1/i);
  });

  it('langgraph: no project title, H1s used as sections, all links outside any H2', () => {
    expect(summary(lintFixture('langgraph.llms.txt'))).toEqual({
      'info:summary-missing': [2],
      'warning:links-outside-sections': [4],
      'warning:multiple-h1': [120, 135],
    });
  });

  it('copilotkit and the archive fixtures: links straight under the title', () => {
    expect(codes(lintFixture('copilotkit.llms.txt'))).toEqual(['summary-missing', 'links-outside-sections']);
    expect(summary(lintFixture('archive-root.llms.txt'))).toEqual({ 'warning:links-outside-sections': [5] });
    expect(summary(lintFixture('archive-empty-index.llms.txt'))).toEqual({ 'info:summary-missing': [1] });
  });

  it('duplicate links are warnings; README-style files have errors for their prose and code', () => {
    expect(summary(lintFixture('openai-apps-sdk.llms.txt'))).toEqual({ 'warning:duplicate-link': [51] });
    expect(summary(lintFixture('openai-root.llms.txt'))).toEqual({ 'warning:duplicate-link': [515] });
    const instructor = summary(lintFixture('instructor.llms.txt'));
    expect(instructor['error:non-link-line']?.length).toBeGreaterThan(20);
    expect(instructor['warning:h3-in-section']).toHaveLength(24);
    expect(summary(lintFixture('mock-llms.txt'))).toEqual({
      'info:summary-missing': [1],
      'warning:empty-section': [5, 15],
      'error:non-link-line': [7, 17],
      'warning:relative-link': [11, 12, 13],
    });
  });
});

describe('validateLlmsTxt checks', () => {
  const ok = '# Proj\n\n> One line.\n\n## Docs\n\n- [A](https://x.test/a): About A\n';

  it('a missing title is an error, a missing summary is advice', () => {
    expect(summary(lint('## Docs\n\n- [A](https://x.test/a)\n'))).toEqual({ 'error:missing-h1': [1] });
    expect(summary(lint(''))).toEqual({ 'error:empty-file': [1] });
    expect(summary(lint('# Proj\n\n## Docs\n\n- [A](https://x.test/a)\n'))).toEqual({ 'info:summary-missing': [1] });
    expect(lint(ok)).toEqual([]);
  });

  it('a summary over several lines, or a second quote, is a warning', () => {
    const multi = lint('# Proj\n\n> One\n> two\n\n## Docs\n\n- [A](https://x.test/a)\n');
    expect(summary(multi)).toEqual({ 'warning:multiline-summary': [3] });
    expect(multi[0]?.message).toMatch(/^Lines 3–4/);
    expect(summary(lint('# Proj\n\n> One\n\nText.\n\n> Two\n\n## Docs\n\n- [A](https://x.test/a)\n'))).toEqual({ 'warning:multiple-blockquotes': [7] });
  });

  it('an Optional section spelled differently is a warning; “Optional” in any case is fine', () => {
    const file = (name: string) => `${ok}\n## ${name}\n\n- [B](https://x.test/b)\n`;
    expect(summary(lint(file('Optionals')))).toEqual({ 'warning:optional-misspelled': [9] });
    expect(summary(lint(file('Optional links')))).toEqual({ 'warning:optional-misspelled': [9] });
    expect(lint(file('Optional'))).toEqual([]);
    expect(lint(file('optional'))).toEqual([]);
  });

  it('links: empty notes, notes without a colon, non-web and unresolvable targets, reference-parser traps', () => {
    const text = [
      '# Proj', '', '> S.', '', '## Docs', '',
      '- [Empty](https://x.test/a):',
      '- [Empty2](https://x.test/b):   ',
      '- [Dash](https://x.test/c) - a description',
      '- [Mail](mailto:me@x.test)',
      '- [Relative](/docs/d): resolves against the file, but not once the text is read alone',
      '- [Paren](https://x.test/f_(g)): Wikipedia style',
      '- [a]b](https://x.test/h)',
      `- [${'Long title '.repeat(12)}](https://x.test/i)`,
      '- [Fine](<https://x.test/j> "title"): ok',
    ].join('\n');
    expect(summary(lint(text))).toEqual({
      'warning:empty-notes': [7, 8],
      'warning:notes-without-colon': [9],
      'warning:non-http-link': [10],
      'warning:relative-link': [11],
      'warning:parenthesis-in-url': [12],
      'warning:bracket-in-name': [13],
      'info:long-title': [14],
    });
    // Root-relative, relative and scheme-relative links each say the full address to write instead.
    const relative = lint('# P\n\n> S.\n\n## Docs\n\n- [A](/docs/a): a\n- [B](b.md): b\n- [C](//cdn.x.test/c): c\n- [D](https://x.test/d): d\n', 'https://x.test/guide/llms.txt');
    expect(summary(relative)).toEqual({ 'warning:relative-link': [7, 8, 9] });
    expect(relative.map((f) => f.message.split('Write it in full: ')[1])).toEqual(['https://x.test/docs/a', 'https://x.test/guide/b.md', 'https://cdn.x.test/c']);
    // A relative link in a file whose own address is unknown cannot resolve.
    expect(summary(lint('# P\n\n> S.\n\n## Docs\n\n- [R](docs/a.md)\n- [Abs](https://x.test/b)\n', 'not a url'))).toEqual({ 'warning:invalid-url': [7] });
  });

  it('content that is not a link inside a section is an error; an H3 is a warning', () => {
    const findings = lint(`${ok}Some prose.\n\n### Sub\n\n- [B](https://x.test/b)\n`);
    expect(summary(findings)).toEqual({ 'error:non-link-line': [8], 'warning:h3-in-section': [10] });
    expect(findings[0]?.message).toContain('Line 8');
  });

  it('big files get advice to split them', () => {
    const many = Array.from({ length: 1001 }, (_, i) => `- [P${i}](https://x.test/p${i})`).join('\n');
    expect(summary(lint(`# P\n\n> S.\n\n## Docs\n\n${many}\n`))).toEqual({ 'info:large-file': [1] });
    const big = Array.from({ length: 900 }, (_, i) => `- [P${i}](https://x.test/p${i}): ${'x'.repeat(1200)}`).join('\n');
    const findings = lint(`# P\n\n> S.\n\n## Docs\n\n${big}\n`);
    expect(summary(findings)).toEqual({ 'info:large-file': [1] });
    expect(findings[0]?.message).toMatch(/1\.\d MB.*nested llms\.txt/);
  });

  it('never throws, whatever it is given', () => {
    const junk = ['\u0000\u0001\uFFFD'.repeat(1000), '<!doctype html><html><body><h1>404</h1></body></html>', `# ${'#'.repeat(100_000)}`, '```\n# open fence', '\uFEFF# Title\r\n> S\r\n'];
    for (const text of junk) expect(() => lint(text)).not.toThrow();
    expect(() => validateLlmsTxt(undefined as unknown as string, BASE)).not.toThrow();
    expect(lint('\uFEFF# Title\r\n\r\n> S\r\n\r\n## D\r\n\r\n- [A](https://x.test/a)\r\n')).toEqual([]);
  });
});

describe('checkLinks against a real server', () => {
  let server: FixtureServer;
  let active = 0;
  let peak = 0;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  beforeAll(async () => {
    server = await startFixtureServer({
      'links.test': {
        routes: {
          '/ok': { status: 200, body: 'fine' },
          '/moved': { status: 301, headers: { location: '/ok' } },
          '/no-head': (req) => (req.method === 'HEAD' ? { status: 405 } : { status: 200, body: 'GET works' }),
          '/not-implemented': (req) => (req.method === 'HEAD' ? { status: 501 } : { status: 404 }),
          '/hang': { status: 200, delayMs: 3000 },
          '/counted': async () => {
            active++;
            peak = Math.max(peak, active);
            await sleep(60);
            active--;
            return { status: 200 };
          },
        },
      },
    });
  });
  afterAll(async () => {
    await server.close();
  });
  const url = (path: string) => server.url('links.test', path);

  it('HEAD first, GET when HEAD is not supported; results in input order', async () => {
    const before = server.requests.length;
    const results = await checkLinks([url('/ok'), url('/missing'), url('/no-head'), url('/moved'), url('/not-implemented'), 'mailto:me@x.test'], { fetch: loopbackFetch() });
    expect(results).toEqual([
      { url: url('/ok'), ok: true, status: 200 },
      { url: url('/missing'), ok: false, status: 404, reason: 'The server answered HTTP 404.' },
      { url: url('/no-head'), ok: true, status: 200 },
      { url: url('/moved'), ok: true, status: 200 },
      { url: url('/not-implemented'), ok: false, status: 404, reason: 'The server answered HTTP 404.' },
      { url: 'mailto:me@x.test', ok: false, reason: 'Not checked: mailto links cannot be fetched.' },
    ]);
    const log = server.requests.slice(before).map((r) => `${r.method} ${r.path}`).sort();
    // The redirect is followed with HEAD too: /moved costs two HEADs and no GET.
    expect(log).toEqual(['GET /no-head', 'GET /not-implemented', 'HEAD /ok', 'HEAD /missing', 'HEAD /moved', 'HEAD /no-head', 'HEAD /not-implemented', 'HEAD /ok'].sort());
  });

  it('gives up on a link that does not answer in time', async () => {
    const started = Date.now();
    const [hang, fine] = await checkLinks([url('/hang'), url('/ok')], { fetch: loopbackFetch(), timeoutMs: 300 });
    expect(hang).toEqual({ url: url('/hang'), ok: false, reason: 'No answer within 0.3 s.' });
    expect(fine?.ok).toBe(true);
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('checks at most `limit` distinct links, each once, with bounded concurrency', async () => {
    const before = server.requests.length;
    peak = 0;
    const urls = [1, 2, 3, 4, 5, 6].map((n) => `${url('/counted')}?n=${n}`);
    const results = await checkLinks([...urls, urls[0] ?? ''], { fetch: loopbackFetch(), concurrency: 2, limit: 4 });
    expect(results.map((r) => r.ok)).toEqual([true, true, true, true, false, false, true]);
    expect(results[4]?.reason).toBe('Not checked: only the first 4 links are checked.');
    expect(results[6]).toEqual(results[0]);
    expect(server.requests.length - before).toBe(4);
    expect(peak).toBe(2);
  });

  it('reports network failures in words', async () => {
    const [result] = await checkLinks(['http://nowhere.invalid/x'], { fetch: loopbackFetch(), timeoutMs: 2000 });
    expect(result).toMatchObject({ ok: false });
    expect(result?.reason).toMatch(/^The request failed: .*ENOTFOUND/);
  });
});
