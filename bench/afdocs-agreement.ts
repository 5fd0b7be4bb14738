/**
 * Scout's check against AFDocs' (npm `afdocs` 0.22.2, the Agent-Friendly Documentation Spec
 * checker, pinned as a dev dependency) on the fixture site in eight states, from a bare static site
 * to one that publishes everything (tests/fixtures/afdocs-agreement.ts, which the unit test
 * tests/unit/check-afdocs-agreement.test.ts shares): for each AFDocs check, do the two give the same
 * pass / warn / fail / skip? Also both overall scores and each side's time per site. The
 * differences Scout makes on purpose are listed in KNOWN_DIFFERENCES and explained in docs/check.md.
 *
 *   npx tsx bench/afdocs-agreement.ts [--afdocs <bin/afdocs.mjs of another copy>]
 *
 * Prints the table and writes bench/results/afdocs-agreement-<date>.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afdocsBin, AGREEMENT_SITES, compareAll } from '../tests/fixtures/afdocs-agreement';
import { arg } from './harness';

const AFDOCS = arg('afdocs', afdocsBin());
const DATE = new Date().toISOString().slice(0, 10);
const OUT = arg('out', `bench/results/afdocs-agreement-${DATE}.json`);

async function main(): Promise<void> {
  const started = Date.now();
  const sites = await compareAll(2, AFDOCS);
  const rows = sites.flatMap((s) => s.rows);
  const same = rows.filter((r) => r.same).length;
  for (const r of rows.filter((x) => !x.same)) console.log(`${r.site.padEnd(24)} ${r.afdocs.padEnd(30)} scout ${r.scout.padEnd(5)} afdocs ${r.theirs.padEnd(5)} ${r.known ? `known: ${r.known}` : `UNEXPLAINED (afdocs: ${r.message})`}`);
  for (const s of sites) console.log(`${s.site.padEnd(24)} score: scout ${s.scores.scout ?? '?'}, afdocs ${s.scores.afdocs ?? '?'}; ${s.ms.scout} ms / ${s.ms.afdocs} ms`);
  const unexplained = rows.filter((r) => !r.same && !r.known).length;
  console.log(`agreement: ${same} of ${rows.length} checks (${((same / rows.length) * 100).toFixed(1)} %) on ${Object.keys(AGREEMENT_SITES).length} sites; ${unexplained} differences unexplained; ${Date.now() - started} ms`);
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, `${JSON.stringify({ date: DATE, command: 'npx tsx bench/afdocs-agreement.ts', afdocsVersion: '0.22.2', agreement: { same, total: rows.length, unexplained }, sites: sites.map((s) => ({ site: s.site, scores: s.scores, ms: s.ms })), rows }, null, 2)}\n`);
  console.log(`wrote ${OUT}`);
}

await main();
