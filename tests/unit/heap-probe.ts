import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'vitest';

/**
 * Runs `program` (an ES module that prints one number) in a Node of its own, without the user's
 * NODE_OPTIONS; with `bound`, SCOUT_HEAP_TEST_BOUND names cli/heap.ts for the program to import and
 * call, as cli/scout.ts does at start. A flag set inside a process is only seen in a fresh one.
 */
export function heapProbe(program: string, name: string, bound: boolean): number {
  const file = join(tmpdir(), `scout-${name}-${process.pid}.mjs`);
  writeFileSync(file, program);
  const heapModule = pathToFileURL(join(import.meta.dirname, '../../cli/heap.ts')).href;
  const run = spawnSync(process.execPath, ['--import', 'tsx', file], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', ...(bound ? { SCOUT_HEAP_TEST_BOUND: heapModule } : {}) } });
  expect(run.status, run.stderr).toBe(0);
  return Number(run.stdout);
}
