// The Node (V8) flags `scout generate` runs with, and the restart of the bin that gives them to it.
// Plain JavaScript: cli/bin.mjs loads it before anything else, and scripts/build-cli.mjs records
// the flags beside the bundle for whatever runs the bundle directly (bench/cli.ts).
import { spawn } from 'node:child_process';

/**
 * `--single-threaded`: V8 runs no tasks on helper threads. Its garbage collector then scavenges
 * and marks on the main thread alone, and it compiles optimised code there too. A crawl converts
 * pages on one thread already; on a machine whose cores are busy with other work (CI, where the
 * CLI runs) the helpers mostly add CPU of their own, dividing and synchronising work that the
 * main thread waits for anyway. Python docs, 526 pages, `bench/cli.ts --no-peer`, runs interleaved
 * (2026-11-30), CPU per page and peak RSS: with two busy loops beside it, base 58/53/53 ms,
 * 262-265 MB; `--single-threaded-gc` 46/52/45 ms, 262-303 MB; `--single-threaded` 49/47/49 ms,
 * 250 MB. On the machine alone, 42/47/43/43 against 41/41/39/46 ms (and 41/42/43/51 with
 * `--single-threaded-gc`): no worse. Output is the same.
 *
 * V8 reads these flags only as it sets up: `v8.setFlagsFromString('--single-threaded-gc')` in a
 * running Node 20 aborts it at its next full collection. `#!/usr/bin/env node` takes no arguments
 * portably, so the bin starts Node again with them (`relaunchWithNodeFlags`), about 0.1 s of CPU.
 */
export const GENERATE_NODE_FLAGS = ['--single-threaded'];

/** The commands whose process is started with GENERATE_NODE_FLAGS: the crawl's, long enough to pay for a second start. */
const COMMANDS = new Set(['generate']);

/** Any flag of V8's GC threading (or threading as a whole): the user's choice then stands. Node refuses these in NODE_OPTIONS. */
const USER_FLAG = /--(no-)?single[-_]threaded\b/;

/**
 * The flags a Node started as `node <execArgv> <script> <args>` lacks for the command in `args`:
 * none for another command, or when GC threading is set on its command line already (by the user,
 * or by the relaunch).
 */
export function missingNodeFlags(args, execArgv = process.execArgv) {
  if (!COMMANDS.has(args[0])) return [];
  if (execArgv.some((arg) => USER_FLAG.test(arg))) return [];
  return GENERATE_NODE_FLAGS;
}

/**
 * When the command lacks its flags, runs this same script again in a Node started with them and
 * resolves to true once that child has exited (this process then ends as the child did: same
 * exit code, or the same signal); resolves to false at once when nothing is missing, for the
 * caller to run the command itself. The child shares stdin, stdout and stderr; a SIGINT, SIGTERM
 * or SIGHUP sent to this process is passed on to it.
 */
export function relaunchWithNodeFlags(script, args = process.argv.slice(2)) {
  const flags = missingNodeFlags(args);
  if (!flags.length) return Promise.resolve(false);
  const child = spawn(process.execPath, [...process.execArgv, ...flags, script, ...args], { stdio: 'inherit' });
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const forward = (signal) => child.kill(signal);
  for (const signal of signals) process.on(signal, forward);
  return new Promise((resolve) => {
    // Node could not be started again (the error comes before any exit): the command runs here.
    child.once('error', () => {
      if (child.pid === undefined) resolve(false);
    });
    child.once('exit', (code, signal) => {
      for (const s of signals) process.off(s, forward);
      if (signal) process.kill(process.pid, signal);
      else process.exitCode = code ?? 1;
      resolve(true);
    });
  });
}
