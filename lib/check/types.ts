/**
 * The agent-readiness check of a site (#19): what the side panel's Check view shows and what
 * `scout check` prints. Both run the same checks (run.ts) on the same inputs, so a site's CI and
 * its owner see the same findings.
 */

import type { CheckId } from '../store/records/check';

/** The report's shape is stored with a check job, so it lives in the store (lib/store/records/check.ts). */
export { CHECK_IDS } from '../store/records/check';
export type { AfdocsId, CategoryId, CategoryScore, CheckFinding, CheckId, CheckReport, CheckResult, CheckStatus, Grade, ScoredItem, ScoreReport, Severity } from '../store/records/check';

/** What each check looks at, in a few words (the report's row titles). */
export const CHECK_TITLES: Record<CheckId, string> = {
  'llms-txt': 'llms.txt published and valid',
  size: 'Size within what an agent reads whole',
  links: 'llms.txt links answer',
  'links-markdown': 'llms.txt links lead to Markdown',
  descriptions: 'Entries have descriptions',
  coverage: 'Every page is in an llms.txt',
  describedby: 'Pages link their llms.txt (rel=describedby)',
  'directive-html': 'Pages say where their llms.txt is',
  'directive-md': 'Twins say where their llms.txt is',
  alternate: 'Pages link their Markdown (rel=alternate)',
  twins: 'Markdown twins (.md) published',
  parity: 'Twins match their pages',
  accept: 'Accept: text/markdown honoured',
  'page-size-md': 'Twins are short enough to read whole',
  'page-size-html': 'Pages are short enough to read whole',
  rendering: 'Content is in the HTML, not filled in by scripts',
  'page-size-transfer': 'Pages serve few enough bytes to fetch',
  'single-fetch': 'Twins are whole, or link the rest',
  'content-start': 'Content comes before the menus',
  tabs: 'Tabs read one after another stay short',
  'section-headers': 'Tab headings say which variant they are',
  'embedded-data': 'No bulk data makes pages too long',
  fences: 'Code blocks in twins are closed',
  'link-portability': 'Twins link by full addresses',
  'not-found': 'Missing pages answer 404',
  redirects: 'Redirects are plain HTTP on the same host',
  cache: 'Caching headers keep pages fresh',
  'auth-gate': 'Pages open without a login',
  'auth-alternative': 'Something public stands in for gated pages',
  'bot-protection': 'Bot protection lets the check through',
  robots: 'robots.txt lets agents read the llms files',
};

