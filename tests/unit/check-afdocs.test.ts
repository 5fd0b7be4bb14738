/**
 * The ten checks that complete Scout's counterparts of AFDocs' 28 (lib/check/shape-checks.ts and
 * access-checks.ts), each on the fixture site served over loopback with the fault that trips it,
 * and their rules on plain text where a rule is worth pinning down by itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAuthAlternative, detectPagination, looksLikeMarkdown, topLimit } from '@/lib/check/access-checks';
import type { CheckInputs } from '@/lib/check/gather';
import { markdownTabs } from '@/lib/check/page-shape';
import { findingKey } from '../fixtures/finding-key';
import { runSiteCheck } from '@/lib/check/run';
import { bulkChars, contentStart } from '@/lib/check/shape-checks';
import type { CheckReport, CheckResult } from '@/lib/check/types';
import { checkSite, type CheckSiteFaults } from '../fixtures/check-site';
import { loopbackFetch, startFixtureServer, type FixtureServer } from '../fixtures/server';

const FAULTS: Record<string, CheckSiteFaults> = {
  shell: { shell: true },
  generic: { tabs: 'generic' },
  labelled: { tabs: 'labelled' },
  longtabs: { tabs: 'long' },
  top: { paginatedTwin: 'top' },
  late: { paginatedTwin: 'late' },
  broken: { paginatedTwin: 'broken' },
  heavy: { heavyPage: true },
  bulk: { bulkTable: true },
  menu: { menuFirst: true },
  gated: { extrasGated: '401' },
};

/** The clean site, until it has answered `allowed` requests; then `status` to everything, as a protection that noticed. */
function limitedSite(allowed: number, status: number) {
  const site = checkSite({});
  let seen = 0;
  return {
    fallback: (req: Parameters<NonNullable<ReturnType<typeof checkSite>['fallback']>>[0]) => {
      seen++;
      return seen > allowed ? { status, headers: { 'content-type': 'text/plain' }, body: 'Too many requests' } : (site.fallback?.(req) ?? null);
    },
  };
}

let server: FixtureServer;
const host = (name: string) => `${name}.afdocs.test`;
const check = async (name: string): Promise<CheckReport> => (await runSiteCheck({ pageUrl: server.url(host(name), '/'), fetch: loopbackFetch() })).report;
const result = (report: CheckReport, id: CheckResult['id']) => report.checks.find((c) => c.id === id);
const keysOf = (report: CheckReport, id: CheckResult['id']) => report.findings.filter((f) => f.check === id).map(findingKey);

beforeAll(async () => {
  server = await startFixtureServer({
    ...Object.fromEntries(Object.entries(FAULTS).map(([name, faults]) => [host(name), checkSite(faults)])),
    [host('blocked')]: limitedSite(40, 503),
    [host('limited')]: limitedSite(40, 429),
  });
});
afterAll(() => server.close());

describe('the AFDocs checks Scout added, on real sites', { timeout: 30_000 }, () => {
  it('a page its scripts fill in fails rendering-strategy, and parity does not compare its empty HTML with its twin', async () => {
    const report = await check('shell');
    expect(keysOf(report, 'rendering')).toEqual(['error rendering client-rendered-shell /extras/plugins.html']);
    expect(result(report, 'rendering')?.status).toBe('fail');
    expect(report.findings.find((f) => f.check === 'rendering')?.figure).toBe('1 script, 0 characters of text');
    expect(result(report, 'parity')?.status).toBe('pass');
    expect(result(report, 'parity')?.summary).toMatch(/^8 twins compared/);
  });

  it('tab panels that all say “Download” fail section-header-quality; headings with the platform pass', async () => {
    const generic = await check('generic');
    expect(keysOf(generic, 'section-headers')).toEqual(['warning section-headers generic-tab-headings /guide/install.html']);
    expect(result(generic, 'section-headers')?.status).toBe('fail');
    expect(result(generic, 'tabs')?.status).toBe('pass');
    expect(result(generic, 'tabs')?.summary).toMatch(/^1 of 9 sampled pages have tabs/);
    const labelled = await check('labelled');
    expect(result(labelled, 'section-headers')?.status).toBe('pass');
    expect(labelled.findings).toEqual([]);
  });

  it('tabs that serialize past 50,000 characters warn, with their size', async () => {
    const report = await check('longtabs');
    expect(keysOf(report, 'tabs')).toEqual(['warning tabs tabs-over-budget /guide/install.html']);
    const chars = Number((report.findings.find((f) => f.check === 'tabs')?.figure ?? '').match(/1 tab group, ([\d,]+) characters/)?.[1]?.replace(/,/g, ''));
    expect(chars).toBeGreaterThan(50_000);
    expect(chars).toBeLessThanOrEqual(100_000);
  });

  it('a twin in parts: a working continuation near the top passes, one at the end by a relative address warns, a missing one fails', async () => {
    const top = await check('top');
    expect(result(top, 'single-fetch')?.status).toBe('pass');
    expect(result(top, 'single-fetch')?.summary).toBe('9 twins read; each whole in one answer.');
    const late = await check('late');
    expect(keysOf(late, 'single-fetch')).toEqual(['warning single-fetch fragile-continuation /api/client.md']);
    // A short twin's end is still within its first 1,000 characters: only the relative address warns.
    expect(late.findings.find((f) => f.check === 'single-fetch')?.message).toMatch(/^\/api\/client\.md declares its continuation by a relative address: /);
    const broken = await check('broken');
    expect(keysOf(broken, 'single-fetch')).toEqual(['error single-fetch partial-twin /api/client.md']);
    expect(broken.findings.find((f) => f.check === 'single-fetch')?.message).toContain('answers HTTP 404 (/api/client-part-3.md)');
  });

  it('a page serving 1.2 MB warns page-size-transfer, with how many bytes it serves per character of content', async () => {
    const report = await check('heavy');
    expect(keysOf(report, 'page-size-transfer')).toEqual(['warning page-size-transfer transfer-over-budget /api/server.html']);
    expect(report.findings.find((f) => f.check === 'page-size-transfer')?.figure).toMatch(/^1\.\d MB served, [\d,]+:1 to its content$/);
    expect(result(report, 'page-size-html')?.status).toBe('pass');
    // The other pages are a few kB: said in kB, not “0.0 MB”.
    expect(result(await check('generic'), 'page-size-transfer')?.summary).toMatch(/^9 pages measured; the largest serves \d kB \(budget 1\.0 MB\)\.$/);
  });

  it('a page made too long by a 1,400-row table warns embedded-data-serialization', async () => {
    const report = await check('bulk');
    expect(keysOf(report, 'embedded-data')).toEqual(['warning embedded-data bulk-data /api/server.html']);
    expect(report.findings.find((f) => f.check === 'embedded-data')?.figure).toMatch(/^\d+ % bulk data, largest a 1,400-row table$/);
    expect(result(report, 'page-size-html')?.status).toBe('warn');
  });

  it('content after a menu of links: content-start-position by how far in it starts; content first passes', async () => {
    const report = await check('menu');
    const finding = report.findings.find((f) => f.check === 'content-start');
    expect(finding?.figure).toMatch(/^content starts at \d+ %$/);
    expect(Number(finding?.figure?.match(/\d+/)?.[0])).toBeGreaterThan(10);
    expect(result(report, 'content-start')?.status).not.toBe('pass');
    expect(result(await check('generic'), 'content-start')?.status).toBe('pass');
  });

  it('pages behind a login, with twins published: alternative access passes and says what stands in', async () => {
    const report = await check('gated');
    expect(result(report, 'auth-gate')?.status).toBe('warn');
    expect(result(report, 'auth-alternative')?.status).toBe('pass');
    expect(result(report, 'auth-alternative')?.summary).toMatch(/a public llms\.txt, public Markdown, 7 of 9 pages open/);
  });

  it('a site that starts refusing the check fails bot-protection-interference; with 429s only it warns', async () => {
    const blocked = await check('blocked');
    expect(result(blocked, 'bot-protection')?.status).toBe('fail');
    expect(keysOf(blocked, 'bot-protection')[0]).toMatch(/^error bot-protection blocked-after-onset /);
    expect(blocked.findings.find((f) => f.check === 'bot-protection')?.figure).toMatch(/^0 % refused in the first third, 100 % in the last; first HTTP 503$/);
    const limited = await check('limited');
    expect(result(limited, 'bot-protection')?.status).toBe('warn');
    expect(keysOf(limited, 'bot-protection')[0]).toMatch(/^warning bot-protection rate-limited /);
    expect(result(await check('generic'), 'bot-protection')?.status).toBe('pass');
  });
});

describe('the rules on their own', () => {
  it('content starts at the first heading with prose under it, after a menu of links', () => {
    const menu = Array.from({ length: 10 }, (_, i) => `- [Section ${i}](/s/${i})`).join('\n');
    const doc = `${menu}\n\n# Install\n\nDownload the archive and unpack it into a folder on your path.\n`;
    expect(contentStart(doc)).toBe(menu.length + 2);
    expect(contentStart('# Title\n\nA first paragraph of prose that says what the page is about.')).toBe(0);
    expect(contentStart(menu)).toBe(menu.length + 1);
  });

  it('pagination: an explicit “Next page” link, a later page parameter, an “N of M” note; not prev/next between pages', () => {
    const base = 'https://docs.test/api/client.md';
    expect(detectPagination('# A\n\n[Next page](https://docs.test/api/client-2.md)\n', base).continuation?.absolute).toBe(true);
    expect(detectPagination('# A\n\n[More](client.md?page=2)\n', base).continuation?.url).toBe('client.md?page=2');
    expect(detectPagination('# A\n\n> Showing 100 of 240 methods\n', base)).toEqual({ signals: 1 });
    expect(detectPagination('# A\n\n[Next](https://docs.test/api/server.md)\n', base)).toEqual({ signals: 0 });
    expect(detectPagination('# A\n\nIf 3 out of 50 pages fail, the check scores 94.\n', base)).toEqual({ signals: 0 });
    expect(detectPagination('```\n[Next page](x.md)\n```\n', base)).toEqual({ signals: 0 });
    expect([topLimit(100), topLimit(30_000), topLimit(200_000)]).toEqual([1000, 3000, 5000]);
  });

  it('bulk data: a uniform table of 20 rows or more, a JSON block or base64 run of 2,000 characters', () => {
    const table = (rows: number) => ['| a | b |', '|---|---|', ...Array.from({ length: rows }, (_, i) => `| ${i} | x |`)].join('\n');
    expect(bulkChars(table(19)).chars).toBe(0);
    expect(bulkChars(table(20)).largest).toBe('a 20-row table');
    const json = JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => ({ id: i })) });
    expect(bulkChars(`\`\`\`json\n${json}\n\`\`\``).largest).toBe(`a ${json.length.toLocaleString('en')}-character JSON block`);
    expect(bulkChars(`text ${'QUJD'.repeat(600)} text`).largest).toBe('a 2,400-character base64 run');
    expect(bulkChars('plain prose, no data').chars).toBe(0);
  });

  it('tabs in Markdown: <Tabs> of <Tab> components, labels and headings per panel', () => {
    const groups = markdownTabs('<Tabs>\n<Tab label="npm">\n\n## Install\n\nnpm i x\n</Tab>\n<Tab label="yarn">\n\n## Install\n\nyarn add x\n</Tab>\n</Tabs>\n');
    expect(groups.map((g) => g.panels.map((p) => [p.label, p.headers]))).toEqual([[['npm', ['Install']], ['yarn', ['Install']]]]);
    expect(markdownTabs('no tabs here')).toEqual([]);
  });

  it('Markdown by its marks, not HTML documents', () => {
    expect(looksLikeMarkdown('# Title\n\ntext')).toBe(true);
    expect(looksLikeMarkdown('<!doctype html><html><body># no</body></html>')).toBe(false);
    expect(looksLikeMarkdown('just words')).toBe(false);
  });

  it('alternative access: none found fails, a public index alone warns, public Markdown passes', () => {
    const gate = (proportion: number): CheckResult => ({ id: 'auth-gate', title: '', status: 'fail', summary: '', findings: [], proportion });
    const pages = Array.from({ length: 4 }, (_, i) => ({ url: `https://d.test/${i}`, finalUrl: `https://d.test/${i}`, status: 401, html: '', links: [], twins: [] }));
    const inputs = (llms: boolean) => ({ pageUrl: 'https://d.test/', pages, llmsFiles: llms ? [{ url: 'https://d.test/llms.txt', kind: 'llms', text: '# D' }] : [] }) as unknown as CheckInputs;
    expect(checkAuthAlternative(inputs(false), [gate(0)]).status).toBe('fail');
    expect(checkAuthAlternative(inputs(true), [gate(0)]).status).toBe('warn');
    const twins: CheckResult = { id: 'twins', title: '', status: 'warn', summary: '', findings: [] };
    expect(checkAuthAlternative(inputs(false), [gate(0), twins]).status).toBe('pass');
    expect(checkAuthAlternative(inputs(false), [{ ...gate(1), status: 'pass' }]).status).toBe('na');
  });
});
