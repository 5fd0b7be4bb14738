/**
 * The precompiled CLI (scripts/build-cli.mjs) and how the `scout` bin (cli/bin.mjs) picks it:
 * the bundle while it is newer than every source it was built from, the TypeScript through tsx
 * otherwise (no bundle, a source changed or gone since the build, SCOUT_CLI_BUNDLE=off). Real
 * processes throughout: the build script, the bin, and the bundle serving MCP to the SDK's client.
 *
 * They run on a copy of the CLI's sources (cli/, lib/, package.json, the build script) in a
 * folder of its own under .output/, where packages resolve from the project's node_modules: a
 * source there can be touched without touching the project's, and others editing the project's
 * sources meanwhile do not make the test's bundle stale. A line appended to the bundle's entry
 * writes a mark on stderr when the bundle's code runs: the TypeScript has no such line.
 */
import { execFile } from 'node:child_process';
import { appendFile, cp, mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTokens } from '../../lib/tokens';
import { GENERATE_NODE_FLAGS } from '../../cli/node-flags.mjs';

const MARK = 'scout-test: the bundle ran';
/** The extension's build-time linkedom and turndown patches, which the CLI's build applies too. */
const LINKEDOM_PATCHES = ['scripts/linkedom-lazy-listeners.ts', 'scripts/linkedom-raw-class.ts', 'scripts/linkedom-parse-handlers.ts', 'scripts/linkedom-upper-names.ts', 'scripts/linkedom-selector-cache.ts', 'scripts/linkedom-text-content.ts', 'scripts/linkedom-text-runs.ts', 'scripts/turndown-node-flags.ts'];
const copy = resolve('.output', `cli-test-${process.pid}`);
const bundleDir = join(copy, '.output', 'cli');
let tmp: string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  return new Promise((done) => {
    execFile(process.execPath, command, { cwd: process.cwd(), timeout: 120_000, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

/** The copy's `node cli/bin.mjs …`, from the project's folder; SCOUT_CLI_BUNDLE as given (unset: its own bundle). */
const bin = (args: string[], bundle?: string) => run([join(copy, 'cli', 'bin.mjs'), ...args], { SCOUT_CLI_BUNDLE: bundle, SCOUT_CACHE_DIR: join(tmp, 'index-cache') });

/** A copy of the test's bundle (beside it, under .output/) whose inputs.json `edit` changes. */
async function copyBundle(name: string, edit: (manifest: { builtAt: number; inputs: string[] }) => Promise<void> | void): Promise<string> {
  const dir = `${bundleDir}-${name}`;
  await cp(bundleDir, dir, { recursive: true });
  const manifest = await inputsJson(dir);
  await edit(manifest);
  await writeFile(join(dir, 'inputs.json'), JSON.stringify(manifest));
  return dir;
}

async function inputsJson(dir = bundleDir): Promise<{ builtAt: number; inputs: string[]; generateNodeFlags?: string[] }> {
  return JSON.parse(await readFile(join(dir, 'inputs.json'), 'utf8'));
}

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'scout-cli-bundle-'));
  await mkdir(join(copy, 'scripts'), { recursive: true });
  for (const path of ['cli', 'lib', 'package.json', 'scripts/build-cli.mjs', ...LINKEDOM_PATCHES, 'scripts/source-patch.ts', 'scripts/source-patches.ts']) await cp(path, join(copy, path), { recursive: true });
  const built = await run([join(copy, 'scripts', 'build-cli.mjs')]);
  expect(built.stderr).toMatch(/build-cli: .*scout\.js from \d+ sources/);
  expect(built.code).toBe(0);
  await appendFile(join(bundleDir, 'scout.js'), `\nprocess.stderr.write(${JSON.stringify(`${MARK}\n`)});\n`);
}, 120_000);

afterAll(async () => {
  await rm(copy, { recursive: true, force: true });
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('scripts/build-cli.mjs', () => {
  it('lists the sources the bundle was built from, with the time the build started', async () => {
    const { builtAt, inputs } = await inputsJson();
    expect(inputs).toEqual(expect.arrayContaining(['cli/scout.ts', 'cli/mcp.ts', 'cli/common.ts', 'lib/agents/docs-library.ts', 'package.json']));
    expect(inputs.some((path) => path.includes('node_modules'))).toBe(false);
    // Every source was last changed before the build began.
    for (const input of inputs) expect((await stat(join(copy, input))).mtimeMs).toBeLessThanOrEqual(builtAt);
    expect(builtAt).toBeLessThanOrEqual(Date.now());
  });

  it('records the Node flags the bin runs generate with, for what runs the bundle itself', async () => {
    expect((await inputsJson()).generateNodeFlags).toEqual(GENERATE_NODE_FLAGS);
  });

  it('holds the tokenizer\'s vocabulary as JSON data, and counts as the package does', async () => {
    const chunks = (await readdir(bundleDir)).filter((name) => name.endsWith('.js'));
    const texts = await Promise.all(chunks.map((name) => readFile(join(bundleDir, name), 'utf8')));
    const at = texts.findIndex((text) => text.includes('bpeRanks/o200k_base.js'));
    expect(at).toBeGreaterThanOrEqual(0);
    const chunk = texts[at] as string;
    // The module's one statement, with the 200,000 entries in the string JSON.parse reads.
    const vocabulary = chunk.slice(chunk.indexOf('bpeRanks/o200k_base.js'));
    expect(vocabulary).toMatch(/^bpeRanks\/o200k_base\.js\n\s*var \w+ = JSON\.parse\([`"']\["!",/);
    const bundled = (await import(pathToFileURL(join(bundleDir, chunks[at] as string)).href)) as { countTokens: (text: string) => number };
    for (const text of ['Hello, world!', 'naïve café — 日本語のテキスト 🙂', 'def f(x):\n    return x ** 2\n', '<|endoftext|> is plain text here', ' '.repeat(700)]) {
      expect(bundled.countTokens(text)).toBe(countTokens(text));
    }
  }, 60_000);
});

describe('the linkedom patches in the CLI build', () => {
  it('lists them among the sources, so an edited patch makes the bundle stale', async () => {
    const { inputs } = await inputsJson();
    expect(inputs).toEqual(expect.arrayContaining([...LINKEDOM_PATCHES, 'scripts/source-patch.ts', 'scripts/source-patches.ts']));
  });

  it('fails the build when a patch no longer applies to linkedom, rather than bundling it unpatched', async () => {
    // A patch whose code to replace is not in linkedom: the build must have run it on linkedom's module to notice.
    const patch = join(copy, 'scripts', 'linkedom-upper-names.ts');
    const before = await stat(patch);
    const original = await readFile(patch, 'utf8');
    expect(original).toContain("'export const localCase = ");
    await writeFile(patch, original.replace("'export const localCase = ", "'export const localCaseNoLonger = "));
    const outdir = join(copy, '.output', 'cli-broken');
    try {
      const built = await run([join(copy, 'scripts', 'build-cli.mjs'), '--outdir', outdir]);
      expect(built.code).toBe(1);
      expect(built.stderr).toContain('linkedom changed: scripts/linkedom-upper-names.ts no longer applies');
      await expect(stat(join(outdir, 'scout.js'))).rejects.toThrow();
    } finally {
      await writeFile(patch, original);
      await utimes(patch, before.atime, before.mtime);
      await rm(outdir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('cli/bin.mjs picks the bundle or the TypeScript', () => {
  it('runs a bundle built after its sources changed', async () => {
    const help = await bin(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^llms\.txt Scout, command line/);
    expect(help.stderr).toContain(MARK);
  }, 60_000);

  it('runs the TypeScript through tsx when a source changed after the build', async () => {
    const source = join(copy, 'lib', 'agents', 'docs-library.ts');
    const before = await stat(source);
    await utimes(source, new Date(), new Date());
    try {
      const help = await bin(['--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/^llms\.txt Scout, command line/);
      expect(help.stderr).not.toContain(MARK);
    } finally {
      await utimes(source, before.atime, before.mtime);
    }
    // Its time put back, the bundle is the newer again.
    expect((await bin(['--help'])).stderr).toContain(MARK);
  }, 60_000);

  it('runs the TypeScript when a source is gone, there is no bundle, or SCOUT_CLI_BUNDLE=off', async () => {
    const goneDir = await copyBundle('gone', (manifest) => void manifest.inputs.push('lib/no-such-source.ts'));
    try {
      // The copy as it is, but for the source it lists that is not there.
      for (const bundle of [goneDir, join(copy, 'no-bundle-here'), 'off']) {
        const help = await bin(['mcp', '--help'], bundle);
        expect(help.code, bundle).toBe(0);
        expect(help.stdout, bundle).toMatch(/^Usage: scout mcp <folder>/);
        expect(help.stderr, bundle).not.toContain(MARK);
      }
    } finally {
      await rm(goneDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('the bundle does what the TypeScript does', () => {
  it('generates the same llms.txt files, then serves the folder over MCP', async () => {
    const generate = (out: string, bundle?: string) =>
      bin(['generate', 'tests/fixtures/sites/demo-docs', '--base-url', 'http://docs.scout-demo.test/', '--out', out, '--for-agents', '--date', '2026-11-25', '--quiet'], bundle);
    const fromBundle = await generate(join(tmp, 'demo-bundle'));
    expect(fromBundle.stderr).toBe(`${MARK}\n`);
    expect(fromBundle.code).toBe(0);
    expect(fromBundle.stdout).toMatch(/Docs folder for agents: 14 pages as Markdown under pages\/ and manifest\.json/);
    const fromTsx = await generate(join(tmp, 'demo-tsx'), 'off');
    expect(fromTsx.code).toBe(0);
    // The same files but for when each page was fetched.
    const read = async (dir: string, file: string) => (await readFile(join(tmp, dir, file), 'utf8')).replace(/^fetched: .*$/m, 'fetched: …');
    for (const file of ['llms.txt', 'llms-full.txt', 'pages/guide/transactions.md']) expect(await read('demo-bundle', file), file).toBe(await read('demo-tsx', file));

    const transport = new StdioClientTransport({ command: process.execPath, args: [join(copy, 'cli', 'bin.mjs'), 'mcp', join(tmp, 'demo-bundle')], cwd: process.cwd(), stderr: 'pipe', env: { ...process.env, SCOUT_CACHE_DIR: join(tmp, 'index-cache') } as Record<string, string> });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    const client = new Client({ name: 'scout-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const sets = (await client.callTool({ name: 'list_docs', arguments: {} })).structuredContent as { sets: Array<{ id: string; pages: number }> };
      expect(sets.sets).toEqual([expect.objectContaining({ id: 'docs.scout-demo.test', pages: 14 })]);
      const search = await client.callTool({ name: 'search_docs', arguments: { query: 'snapshot isolation transaction' } });
      expect((search.structuredContent as { results: Array<{ url: string }> }).results[0]?.url).toBe('http://docs.scout-demo.test/guide/transactions.html');
      const empty = await client.callTool({ name: 'search_docs', arguments: { query: '' } });
      expect(empty.isError).toBe(true);
    } finally {
      await client.close();
    }
    expect(stderr).toContain(MARK);
  }, 240_000);

  it('lints as the TypeScript does', async () => {
    const args = ['lint', 'tests/fixtures/sites/demo-docs/llms.txt', 'tests/fixtures/sites/demo-docs/api/llms.txt', '--base-url', 'http://docs.scout-demo.test/', '--json'];
    const fromBundle = await bin(args);
    const fromTsx = await bin(args, 'off');
    expect(fromBundle.stderr).toContain(MARK);
    expect(fromTsx.stderr).not.toContain(MARK);
    expect(fromBundle.code).toBe(fromTsx.code);
    expect(JSON.parse(fromBundle.stdout)).toEqual(JSON.parse(fromTsx.stdout));
    expect(fromBundle.stdout).toContain('demo-docs/api/llms.txt');
  }, 120_000);

  it('refuses a folder it cannot serve: exit 1, the reason on stderr, nothing on stdout', async () => {
    const missing = await bin(['mcp', join(tmp, 'no-such-folder')]);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toContain(MARK);
    expect(missing.stderr).toMatch(/no-such-folder is not a docs folder Scout can serve:\n {2}there is no such folder/);
  }, 60_000);
});
