/**
 * The `scout` bin starts `scout generate` in a Node given GENERATE_NODE_FLAGS (cli/node-flags.mjs):
 * V8 takes them only on Node's command line. Real processes: the bin itself, with a module
 * imported through NODE_OPTIONS into every Node it starts that writes each one's arguments to
 * stderr, and a small script relaunching itself to show how the first process ends.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { GENERATE_NODE_FLAGS, missingNodeFlags } from '@/cli/node-flags.mjs';

const dir = mkdtempSync(join(tmpdir(), 'scout-node-flags-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const probe = join(dir, 'probe.mjs');
writeFileSync(probe, "const args = process.execArgv.filter((a) => !a.startsWith('--import'));\nprocess.stderr.write('node-args: ' + JSON.stringify(args) + '\\n');\n");

/** `node cli/bin.mjs <args>`: the arguments of every Node it ran, in order, and its exit code. */
function bin(args: string[], nodeArgs: string[] = []): { nodes: string[][]; status: number | null; stdout: string } {
  const run = spawnSync(process.execPath, [...nodeArgs, resolve('cli/bin.mjs'), ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, NODE_OPTIONS: `--import=${pathToFileURL(probe).href}` },
  });
  const nodes = run.stderr.split('\n').flatMap((line) => (line.startsWith('node-args: ') ? [JSON.parse(line.slice(11)) as string[]] : []));
  return { nodes, status: run.status, stdout: run.stdout };
}

describe('the bin gives scout generate its Node flags', () => {
  it('starts generate again in a Node with them, once, and ends as that Node did', { timeout: 120_000 }, () => {
    const { nodes, status, stdout } = bin(['generate', '--help']);
    expect(GENERATE_NODE_FLAGS).toEqual(['--single-threaded']);
    expect(nodes).toEqual([[], GENERATE_NODE_FLAGS]);
    expect(status).toBe(0);
    expect(stdout.match(/Usage: scout generate/g)).toHaveLength(1);
  });

  it('runs another command, or generate with its own GC threading flag, in the first Node', { timeout: 120_000 }, () => {
    expect(bin(['lint', '--help']).nodes).toEqual([[]]);
    expect(bin(['generate', '--help'], ['--no-single-threaded-gc']).nodes).toEqual([['--no-single-threaded-gc']]);
    expect(missingNodeFlags(['generate'], ['--single_threaded'])).toEqual([]);
    expect(missingNodeFlags(['generate'], ['--single-threaded-gc'])).toEqual([]);
    expect(missingNodeFlags(['generate', 'https://example.com/'], ['--max-old-space-size=500'])).toEqual(GENERATE_NODE_FLAGS);
  });

  it('passes the relaunched Node’s exit code and deadly signal on', () => {
    const script = join(dir, 'relaunch.mjs');
    writeFileSync(
      script,
      `import { relaunchWithNodeFlags } from ${JSON.stringify(pathToFileURL(resolve('cli/node-flags.mjs')).href)};
if (!(await relaunchWithNodeFlags(${JSON.stringify(script)}))) {
  if (process.argv[3] === 'exit') process.exit(3);
  process.kill(process.pid, 'SIGTERM');
}
`,
    );
    const node = (how: string) => spawnSync(process.execPath, [script, 'generate', how], { encoding: 'utf8', timeout: 30_000, env: { ...process.env, NODE_OPTIONS: '' } });
    expect(node('exit').status).toBe(3);
    const killed = node('signal');
    expect(killed.status).toBeNull();
    expect(killed.signal).toBe('SIGTERM');
  });
});
