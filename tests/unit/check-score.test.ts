/**
 * The check's score (lib/check/score.ts): AFDocs' weights on real sites served over loopback, the
 * figures worked out by hand from the weights in docs/check.md, and `scout check --min-score` /
 * `--format` run as a child process, as a site's CI runs it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSiteCheck } from '@/lib/check/run';
import { AFDOCS_CHECKS, AFDOCS_MAP, CATEGORIES, gradeOf, scoreChecks, type ScoreReport } from '@/lib/check/score';
import { CHECK_IDS, CHECK_TITLES, type CheckReport, type CheckResult } from '@/lib/check/types';
import { checkSite, type CheckSiteFaults } from '../fixtures/check-site';
import { loopbackFetch, startFixtureServer, type FixtureServer } from '../fixtures/server';
import { scout } from './run-scout';

const SITES: Record<string, CheckSiteFaults> = {
  clean: {},
  plain: { bare: true },
  nodirective: { noDirective: true },
  accept: { acceptIgnored: true },
  notwins: { noTwins: true },
  huge: { hugeLlms: true },
  soft: { soft404: true, longCache: true, openFence: true },
};

let server: FixtureServer;
const host = (name: string) => `${name}.score.test`;
const check = async (name: string): Promise<CheckReport> => (await runSiteCheck({ pageUrl: server.url(host(name), '/'), fetch: loopbackFetch() })).report;
const score = async (name: string): Promise<ScoreReport> => {
  const report = await check(name);
  if (!report.score) throw new Error('no score');
  return report.score;
};
const category = (s: ScoreReport, id: string) => s.categories.find((c) => c.id === id)?.score;

beforeAll(async () => {
  server = await startFixtureServer(Object.fromEntries(Object.entries(SITES).map(([name, faults]) => [host(name), checkSite(faults)])));
});
afterAll(() => server.close());

describe('the score on real sites', { timeout: 30_000 }, () => {
  it('a site that publishes everything scores 100 (A+) in every category it is measured in', async () => {
    const s = await score('clean');
    expect(s.overall).toBe(100);
    expect(s.grade).toBe('A+');
    expect(s.cap).toBeUndefined();
    expect(s.categories.map((c) => [c.id, c.score])).toEqual([
      ['content-discoverability', 100], ['markdown-availability', 100], ['page-size', 100], ['content-structure', 100],
      ['url-stability', 100], ['observability', 100], ['authentication', 100],
    ]);
  });

  it('no directive anywhere: 93, from the weights by hand', async () => {
    // Content discoverability: exists 10, valid 4, size 7, links 7, links to Markdown 7 pass;
    // directive-html 7 and -md 4 fail: 35 of 46. Markdown availability: twins 7 + negotiation 4.
    // Page size: rendering 10 + twins 7 + pages 7 + transfer 4 + single fetch 4 + content start 4.
    // Content structure: tabs 4 + tab headings 2 + fences 4 + link portability 4 + embedded data 4
    // (negotiation passes, so the Markdown path counts whole). URL stability: 404s 7 + redirects 4.
    // Observability: coverage 4 + parity 4 + cache 2. Authentication: no login 10 + bot protection 7
    // (alternative access has nothing to look at). Overall 138 of 149 = 92.6.
    const s = await score('nodirective');
    expect(category(s, 'content-discoverability')).toBe(Math.round((35 / 46) * 100));
    expect(s.overall).toBe(93);
    expect(s.grade).toBe('A');
    expect(s.items.filter((i) => i.grade === 'fail').map((i) => i.afdocs)).toEqual(['llms-txt-directive-html', 'llms-txt-directive-md']);
  });

  it('a bare static site earns only what its static server does right: 404s, plain redirects, validators', async () => {
    const s = await score('plain');
    // Rendering 10 + page size 7 + transfer 4 + tabs 4 + tab headings 2 + embedded data 4 + 404s 7 +
    // redirects 4 + cache 2 + no login 10 + bot protection 7 = 61, of those plus exists 10,
    // directive 7, twins 7, negotiation 4 and content start 4 (its menu comes first): 61 of 93,
    // 66 — capped at 59 without an llms.txt.
    expect(s.overall).toBe(59);
    expect(s.cap?.cap).toBe(59);
    expect(s.grade).toBe('F');
    expect(s.items.map((i) => `${i.afdocs} ${i.grade}`)).toEqual([
      'llms-txt-exists fail', 'llms-txt-directive-html fail', 'markdown-url-support fail', 'content-negotiation fail',
      'rendering-strategy pass', 'page-size-html pass', 'page-size-transfer pass', 'content-start-position fail', 'tabbed-content-serialization pass', 'section-header-quality pass', 'embedded-data-serialization pass',
      'http-status-codes pass', 'redirect-behavior pass', 'cache-header-hygiene pass', 'auth-gate-detection pass', 'bot-protection-interference pass',
    ]);
    const earned = s.items.reduce((sum, i) => sum + i.proportion * i.weight * i.coefficient, 0);
    const possible = s.items.reduce((sum, i) => sum + i.weight * i.coefficient, 0);
    expect([earned, possible]).toEqual([61, 93]);
  });

  it('the cap: with no llms.txt a site scores at most 59, however much else it does right', () => {
    const pass = (id: CheckResult['id']): CheckResult => ({ id, title: '', status: 'pass', summary: '', findings: [] });
    const none: CheckResult = { ...pass('llms-txt'), status: 'fail', findings: [{ check: 'llms-txt', severity: 'error', code: 'no-llms-txt', message: '', fix: '' }] };
    const s = scoreChecks([none, pass('twins'), pass('accept'), pass('not-found'), pass('redirects'), pass('cache'), pass('fences')]);
    expect(s.overall).toBe(59);
    expect(s.cap?.cap).toBe(59);
    // Most pages behind a login: capped lower still, the lowest cap winning.
    const gated: CheckResult = { ...pass('auth-gate'), status: 'fail', proportion: 0.2 };
    expect(scoreChecks([pass('llms-txt'), pass('twins'), gated]).cap).toEqual({ cap: 39, reason: 'Three in four pages or more need a login agents do not have.' });
    expect(scoreChecks([none, gated]).overall).toBeLessThanOrEqual(39);
  });

  it('a soft 404, a week-long cache and a code block left open in a twin: each costs its own category', async () => {
    const s = await score('soft');
    // URL stability: 404s 7 fail, redirects 4 pass.
    expect(category(s, 'url-stability')).toBe(Math.round((4 / 11) * 100));
    // Content structure: one twin of nine with a block left open (fences 4); links all full (4),
    // tabs (4), tab headings (2) and embedded data (4) pass.
    expect(category(s, 'content-structure')).toBe(Math.round((((8 / 9) * 4 + 14) / 18) * 100));
    // Observability: coverage 4 + parity 4 pass, cache 2 fail.
    expect(category(s, 'observability')).toBe(80);
  });

  it('Accept: text/markdown ignored costs negotiation and, through its coefficient, nothing else while the directive is there', async () => {
    const s = await score('accept');
    // Markdown availability: twins 7 pass, negotiation 4 fail = 7 of 11.
    expect(category(s, 'markdown-availability')).toBe(Math.round((7 / 11) * 100));
    // Parity's weight falls to 0.8 (directive found, no negotiation): still all earned.
    expect(s.items.find((i) => i.afdocs === 'markdown-content-parity')?.coefficient).toBe(0.8);
    expect(category(s, 'observability')).toBe(100);
  });

  it('an llms.txt past the hard limit fails size, and discounts its validity and links by the share agents see', async () => {
    const s = await score('huge');
    const size = s.items.find((i) => i.afdocs === 'llms-txt-size');
    // Two files: the root in budget (1), the API one past the limit (0).
    expect(size?.proportion).toBe(0.5);
    expect(size?.grade).toBe('fail');
    const links = s.items.find((i) => i.afdocs === 'llms-txt-links-resolve');
    expect(links?.coefficient).toBeCloseTo(100_000 / 120_000);
  });

  it('a stored report from before scores is scored from its checks, the same way', async () => {
    const report = await check('notwins');
    const { score: stored, ...old } = report;
    expect(scoreChecks(old.checks, 0).overall).toBe(stored?.overall);
  });
});

describe('the weights', () => {
  it('every Scout check has a category; every mapped AFDocs check is one of its 28, in one of its 7 categories', () => {
    expect(Object.keys(AFDOCS_CHECKS)).toHaveLength(28);
    expect(CATEGORIES).toHaveLength(7);
    expect(Object.keys(AFDOCS_MAP).sort()).toEqual([...CHECK_IDS].sort());
    const mapped = Object.values(AFDOCS_MAP).flatMap((m) => m.afdocs);
    expect(new Set(mapped).size).toBe(mapped.length);
    for (const id of CHECK_IDS) expect(CHECK_TITLES[id]).toBeTruthy();
  });

  it('grades by AFDocs bands, and a warn earns the check’s warn credit', () => {
    expect([100, 99, 90, 89, 80, 70, 60, 59, 0].map(gradeOf)).toEqual(['A+', 'A', 'A', 'B', 'B', 'C', 'D', 'F', 'F']);
    const warn: CheckResult = { id: 'accept', title: '', status: 'warn', summary: '', findings: [] };
    // content-negotiation: medium (4), warn credit 0.75.
    expect(scoreChecks([warn]).overall).toBe(75);
    expect(scoreChecks([{ ...warn, status: 'na' }]).items).toEqual([]);
    // A category none of whose checks applied has no score (the panel shows a dash), not 0.
    expect(scoreChecks([warn]).categories.find((c) => c.id === 'content-structure')?.score).toBeNull();
  });
});



describe('scout check --min-score and --format', { timeout: 90_000 }, () => {
  let local: FixtureServer;
  beforeAll(async () => {
    local = await startFixtureServer({ '127.0.0.1': checkSite({ noDirective: true }) });
  });
  afterAll(() => local.close());

  it('exits 1 below the score asked for and 0 at it, whatever the warnings; prints the score and categories', async () => {
    const url = `http://127.0.0.1:${local.port}/`;
    const [below, at, json] = await Promise.all([scout('check', url, '--min-score', '94'), scout('check', url, '--min-score', '93'), scout('check', url, '--format', 'json', '--min-score', '93', '--quiet')]);
    expect(below.code).toBe(1);
    expect(below.stdout).toContain('Score 93/100 (A)');
    expect(below.stdout).toContain('FAIL: score 93 below --min-score 94');
    expect(below.stdout).toContain(`Content discoverability ${Math.round((35 / 46) * 100)} · Markdown availability 100 · Page size and truncation risk 100 · Content structure 100 · URL stability and redirects 100 · Observability and content health 100 · Authentication and access 100`);
    expect(at.code).toBe(0);
    expect(at.stdout).toContain('ok: score 93 at or above --min-score 93');
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout) as { ok: boolean; minScore: number; score: ScoreReport };
    expect(parsed).toMatchObject({ ok: true, minScore: 93, score: { overall: 93, grade: 'A' } });
  });

  it('--format markdown prints the report with the score; a bad format or two formats are bad usage', async () => {
    const url = `http://127.0.0.1:${local.port}/`;
    const [markdown, bad, both, range] = await Promise.all([
      scout('check', url, '--format', 'markdown', '--date', '2026-11-27', '--quiet'), scout('check', url, '--format', 'yaml'),
      scout('check', url, '--format', 'text', '--json'), scout('check', url, '--min-score', '101'),
    ]);
    expect(markdown.stdout).toMatch(/^# Agent readiness: 127\.0\.0\.1:\d+\n/);
    expect(markdown.stdout).toContain('Score 93/100 (A).');
    expect(markdown.stdout).toContain('| **Content discoverability: 76** | | | |');
    expect(markdown.stdout).toContain('| Pages say where their llms.txt is | FAIL | 0 of 9 sampled pages name their llms.txt. | llms-txt-directive-html |');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--format must be text, json or markdown, got "yaml"');
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('Choose one format');
    expect(range.code).toBe(2);
    expect(range.stderr).toContain('--min-score must be a whole number from 0 to 100');
  });
});
