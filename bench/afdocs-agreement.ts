/**
 * Scout's check against AFDocs' (npm `afdocs`, the Agent-Friendly Documentation Spec checker) on
 * six fixture sites of different quality, from a bare static site to one that publishes
 * everything: for each AFDocs check Scout has a counterpart for (lib/check/score.ts AFDOCS_MAP),
 * do the two give the same pass / warn / fail / skip? Also both overall scores. The differences
 * Scout makes on purpose are listed in DELIBERATE and explained in docs/check.md.
 *
 * AFDocs is not a dependency (it asks for Node 22; 0.22.2 runs on Node 20 with a warning): unpack
 * it beside the project and point --afdocs at its CLI.
 *
 *   cd /tmp && npm pack afdocs@0.22.2 && tar xzf afdocs-0.22.2.tgz && (cd package && npm install --omit=dev)
 *   npx tsx bench/afdocs-agreement.ts --afdocs /tmp/package/bin/afdocs.mjs
 *
 * Prints the table and writes bench/results/afdocs-agreement-<date>.json.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { runSiteCheck } from '../lib/check/run';
import { AFDOCS_MAP } from '../lib/check/score';
import { checkSite, E2E_FAULTS, type CheckSiteFaults } from '../tests/fixtures/check-site';
import { startFixtureServer } from '../tests/fixtures/server';
import { arg } from './harness';

const AFDOCS = arg('afdocs', '/tmp/package/bin/afdocs.mjs');
const DATE = new Date().toISOString().slice(0, 10);
const OUT = arg('out', `bench/results/afdocs-agreement-${DATE}.json`);
const run = promisify(execFile);

const SITES: Record<string, CheckSiteFaults> = {
  everything: {},
  'four-faults': E2E_FAULTS,
  'no-directive': { noDirective: true },
  bare: { bare: true },
  'soft-404-cache-fence': { soft404: true, longCache: true, openFence: true },
  'accept-ignored': { acceptIgnored: true },
};

/** Site / AFDocs check → why Scout differs on purpose (docs/check.md, "Side by side with AFDocs"). */
const DELIBERATE: Record<string, string> = {
  'four-faults llms-txt-size': 'Scout measures every llms.txt, nested ones too; AFDocs the root one',
  'four-faults markdown-content-parity': 'Scout compares words (token-F1 of twin and page); AFDocs counts HTML segments missing from the Markdown',
  'bare llms-txt-directive-md': 'no twins: Scout has nothing to look at (n/a); AFDocs fails it, counting the missing Markdown twice',
};

interface Row { site: string; afdocs: string; scout: string; theirs: string; same: boolean; deliberate?: string }

async function main(): Promise<void> {
  const rows: Row[] = [];
  const scores: Array<{ site: string; scout?: number; afdocs?: number }> = [];
  for (const [site, faults] of Object.entries(SITES)) {
    // AFDocs asks 127.0.0.1 itself: each site on its own port.
    const server = await startFixtureServer({ '127.0.0.1': checkSite(faults) });
    try {
      const url = `http://127.0.0.1:${server.port}/`;
      const { report } = await runSiteCheck({ pageUrl: url, fetch });
      const { stdout } = await run(process.execPath, [AFDOCS, 'check', url, '--format', 'json', '--score', '--quiet', '--sampling', 'deterministic'], { maxBuffer: 64 << 20, timeout: 180_000 }).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? '{}' }));
      const af = JSON.parse(stdout) as { results?: Array<{ id: string; status: string }>; scoring?: { overall: number } };
      const theirs = new Map((af.results ?? []).map((r) => [r.id, r.status]));
      scores.push({ site, scout: report.score?.overall, afdocs: af.scoring?.overall });
      const missing = report.findings.some((f) => f.code === 'no-llms-txt');
      for (const check of report.checks) {
        for (const id of AFDOCS_MAP[check.id].afdocs) {
          let scout: string = check.status === 'na' ? 'skip' : check.status;
          if (id === 'llms-txt-exists') scout = missing ? 'fail' : 'pass';
          if (id === 'llms-txt-valid' && missing) scout = 'skip';
          const other = theirs.get(id) ?? 'absent';
          const deliberate = DELIBERATE[`${site} ${id}`];
          rows.push({ site, afdocs: id, scout, theirs: other, same: scout === other, ...(deliberate ? { deliberate } : {}) });
        }
      }
    } finally {
      await server.close();
    }
  }
  const same = rows.filter((r) => r.same).length;
  for (const r of rows.filter((x) => !x.same)) console.log(`${r.site.padEnd(22)} ${r.afdocs.padEnd(30)} scout ${r.scout.padEnd(5)} afdocs ${r.theirs.padEnd(5)} ${r.deliberate ? `deliberate: ${r.deliberate}` : 'UNEXPLAINED'}`);
  for (const s of scores) console.log(`${s.site.padEnd(22)} score: scout ${s.scout ?? '?'}, afdocs ${s.afdocs ?? '?'}`);
  const unexplained = rows.filter((r) => !r.same && !r.deliberate).length;
  console.log(`agreement: ${same} of ${rows.length} mapped checks (${((same / rows.length) * 100).toFixed(1)} %) on ${Object.keys(SITES).length} sites; ${unexplained} differences unexplained`);
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, `${JSON.stringify({ date: DATE, command: 'npx tsx bench/afdocs-agreement.ts --afdocs <afdocs 0.22.2 bin/afdocs.mjs>', afdocsVersion: '0.22.2', agreement: { same, total: rows.length, unexplained }, scores, rows }, null, 2)}\n`);
  console.log(`wrote ${OUT}`);
}

await main();
