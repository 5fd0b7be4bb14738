/**
 * The docs, not the company around them (issue #27, item 6): each company fixture of
 * tests/fixtures/company-sites/ crawled with default settings from the docs home and two deep pages,
 * through the product's own pipeline (lib/headless/crawl-site.ts), and measured against the
 * company's ground truth: docs stored of all docs pages (≥ 95 %), stored pages outside the docs
 * (≤ 5 %; in brackets those marked not-docs, kept out of the outputs), llms.txt entries that are
 * not docs (0), whether the llms.txt H1 names the docs, pages of other versions or languages
 * stored (0), requests to other sites (0). Prints the table, writes bench/results/company-docs-<date>.json.
 *
 * Run: npm run bench:companies [-- --companies acme,beta --out bench/results/x.json]
 */
import 'fake-indexeddb/auto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { COMPANIES } from '../tests/fixtures/company-sites';
import { type CompanyRun, DONE_WHEN, measureCompany, misses, runsTable } from '../tests/fixtures/company-sites/measure';
import { arg } from './harness';
import { measuredCommit } from './commit';

const DATE = new Date().toISOString().slice(0, 10);
const OUT = arg('out', `bench/results/company-docs-${DATE}.json`);

async function main(): Promise<void> {
  const wanted = arg('companies', '');
  const companies = wanted ? COMPANIES.filter((c) => wanted.split(',').includes(c.id)) : COMPANIES;
  const runs: CompanyRun[] = [];
  for (const company of companies) {
    for (const start of company.starts) {
      const run = await measureCompany(company, start);
      runs.push(run);
      console.log(`${company.id} / ${start.label}: ${misses(run).join(', ') || 'meets the done-when'} (${run.seconds.toFixed(1)} s)`);
    }
  }
  const table = runsTable(runs);
  const details = runs
    .filter((r) => misses(r).length > 0)
    .map((r) => `* ${r.company} / ${r.start}: ${misses(r).join('; ')}\n  e.g. ${Object.entries(r.examples).flatMap(([k, v]) => (v.length ? [`${k}: ${v.slice(0, 3).join(', ')}`] : [])).join(' · ')}`);
  console.log(`\n${table}\n\n${details.join('\n')}`);

  const commit = measuredCommit();
  const command = `npm run bench:companies${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, `${JSON.stringify({ date: DATE, commit, command, doneWhen: DONE_WHEN, runs }, null, 2)}\n`);
  console.log(`wrote ${OUT}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
