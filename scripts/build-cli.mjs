#!/usr/bin/env node
/**
 * Builds the CLI ahead of time (npm run build:cli; postinstall runs it too): cli/scout.ts and the
 * lib/ code and npm packages it uses, compiled by esbuild into .output/cli/, so `scout` starts
 * without tsx's on-the-fly TypeScript transform and without resolving and loading hundreds of
 * package files one by one (the MCP SDK's alone took 0.4-0.7 s). Code splitting keeps each
 * command's modules in their own chunks, loaded only when that command runs.
 *
 * Next to the bundle, inputs.json lists the source files it was built from and when the build
 * started: cli/bin.mjs runs the bundle only while none of them is newer, and the TypeScript
 * through tsx otherwise, so an edited source is never run stale.
 *
 *   node scripts/build-cli.mjs [--outdir <dir>] [--packages bundle|external]
 *
 * The paths in inputs.json are relative to the project. --packages external leaves the npm
 * packages in node_modules, imported from there at run time (--outdir must then be inside the
 * project); bench/mcp-start.ts compares the two: bundled, `scout mcp` used 1.37 s of CPU to its
 * first answer against 1.62 s (median of 5, 2026-11-27).
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { GENERATE_NODE_FLAGS } from '../cli/node-flags.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { outdir: { type: 'string' }, packages: { type: 'string', default: 'bundle' } } });
if (values.packages !== 'bundle' && values.packages !== 'external') {
  process.stderr.write(`build-cli: --packages is bundle or external, not "${values.packages}"\n`);
  process.exit(2);
}
const outdir = resolve(values.outdir ?? join(root, '.output', 'cli'));
// Built beside the old bundle and swapped in whole: a `scout` started meanwhile runs one or the other.
const building = `${outdir}.building-${process.pid}`;

let esbuild;
try {
  esbuild = await import('esbuild');
} catch (error) {
  process.stderr.write(`build-cli: esbuild cannot be loaded (${error.message}); scout runs its TypeScript through tsx.\n`);
  process.exit(1);
}

/**
 * The extension's build-time linkedom and turndown patches (scripts/source-patches.ts, applied by
 * Vite there), applied here too: the CLI converts every page with the same linkedom and turndown,
 * and unpatched it spent a tenth of its CPU per page in EventTarget's constructor and more in
 * collecting the garbage those patches avoid. The list is TypeScript, so esbuild compiles it first
 * into one module imported from memory. Each patch throws when its dependency's code is not the one
 * it was written for, failing the build.
 */
async function loadSourcePatches() {
  const compiled = await esbuild.build({
    entryPoints: [join(root, 'scripts/source-patches.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    logLevel: 'warning',
  });
  return import(`data:text/javascript;base64,${Buffer.from(compiled.outputFiles[0].text).toString('base64')}`);
}

const { SOURCE_PATCHES, SOURCE_PATCH_FILES } = await loadSourcePatches();

const sourcePatchPlugin = {
  name: 'source-patches',
  setup(build) {
    // esbuild picks turndown's CommonJS or ES build by its mainFields; each patch's module matches both.
    for (const { module, patch } of SOURCE_PATCHES) {
      build.onLoad({ filter: module }, async (args) => ({ contents: patch(await readFile(args.path, 'utf8')), loader: 'js', resolveDir: dirname(args.path) }));
    }
  },
};

/**
 * gpt-tokenizer's vocabulary (lib/tokens.ts counts with o200k_base) is a module of one array
 * literal of 200,000 strings and byte lists: compiled and run on every start, it took V8 longer
 * than the same data as a JSON string handed to JSON.parse, which V8 reads without compiling code
 * for it (loading the tokenizer's chunk: 0.29 s of CPU against 0.33, peak RSS 108 MB against 115,
 * medians of 12 interleaved runs, 2026-11-30). The array is the module's default export, and JSON
 * holds it exactly (strings and arrays of numbers, no holes): checked here, failing the build otherwise.
 */
const vocabularyAsJsonPlugin = {
  name: 'vocabulary-as-json',
  setup(build) {
    build.onLoad({ filter: /[\\/]gpt-tokenizer[\\/]esm[\\/]bpeRanks[\\/][\w]+\.js$/ }, async (args) => {
      const { default: ranks } = await import(pathToFileURL(args.path).href);
      const exact = Array.isArray(ranks) && Object.keys(ranks).length === ranks.length &&
        ranks.every((rank) => typeof rank === 'string' || (Array.isArray(rank) && rank.every(Number.isInteger)));
      if (!exact) throw new Error(`${args.path} is no longer an array of strings and byte lists: the CLI's build cannot hold it as JSON`);
      return { contents: `export default JSON.parse(${JSON.stringify(JSON.stringify(ranks))});\n`, loader: 'js' };
    });
  },
};

// Sources newer than this are not in the bundle: taken before esbuild reads any of them.
const builtAt = Date.now();
try {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { scout: 'cli/scout.ts' },
    outdir: building,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    ...(values.packages === 'bundle'
      ? // CommonJS packages compiled into an ES module still call require() (for Node's own modules).
        { banner: { js: "import { createRequire as __scoutRequire } from 'node:module'; const require = __scoutRequire(import.meta.url);" } }
      : { packages: 'external' }),
    plugins: [sourcePatchPlugin, vocabularyAsJsonPlugin],
    metafile: true,
    logLevel: 'warning',
  });
  const inputs = Object.keys(result.metafile.inputs)
    // Files of the project only: not the packages, not the module made up above ("scout:…").
    .filter((path) => !path.includes('node_modules/') && !path.startsWith('scout:'))
    // The patches changed the bundle's code too: an edited patch makes the bundle stale.
    .concat(SOURCE_PATCH_FILES)
    .sort();
  // The flags cli/bin.mjs starts `scout generate` with: what runs the bundle itself (bench/cli.ts) passes them too.
  writeFileSync(join(building, 'inputs.json'), `${JSON.stringify({ builtAt, inputs, generateNodeFlags: GENERATE_NODE_FLAGS }, null, 1)}\n`);
  mkdirSync(dirname(outdir), { recursive: true });
  rmSync(outdir, { recursive: true, force: true });
  renameSync(building, outdir);
  process.stderr.write(`build-cli: ${relative(process.cwd(), join(outdir, 'scout.js')) || outdir} from ${inputs.length} sources\n`);
} catch (error) {
  rmSync(building, { recursive: true, force: true });
  process.stderr.write(`build-cli: the CLI could not be built (${error.message}); scout runs its TypeScript through tsx.\n`);
  process.exit(1);
}
