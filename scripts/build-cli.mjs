#!/usr/bin/env node
/**
 * Builds the CLI ahead of time (npm run build:cli; postinstall runs it too): cli/scout.ts and the
 * lib/ code it uses, compiled by esbuild into .output/cli/, so `scout` starts without tsx's
 * on-the-fly TypeScript transform (most of `scout mcp`'s start-up). Code splitting keeps each
 * command's modules (and the packages they import, which stay in node_modules) in their own
 * chunks, loaded only when that command runs.
 *
 * Next to the bundle, inputs.json lists the source files it was built from and when the build
 * started: cli/bin.mjs runs the bundle only while none of them is newer, and the TypeScript
 * through tsx otherwise, so an edited source is never run stale.
 *
 *   node scripts/build-cli.mjs [--outdir <dir>] [--bundle-deps]
 *
 * The paths in inputs.json are relative to the project; --outdir must be inside it, where the
 * packages the bundle imports resolve from node_modules. --bundle-deps also compiles the npm
 * packages in (compared in bench/mcp-start.ts).
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { outdir: { type: 'string' }, 'bundle-deps': { type: 'boolean', default: false } } });
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
    ...(values['bundle-deps']
      ? // CommonJS packages compiled into an ES module still call require().
        { banner: { js: "import { createRequire as __scoutRequire } from 'node:module'; const require = __scoutRequire(import.meta.url);" } }
      : { packages: 'external' }),
    metafile: true,
    logLevel: 'warning',
  });
  const inputs = Object.keys(result.metafile.inputs)
    .filter((path) => !path.includes('node_modules/'))
    .sort();
  writeFileSync(join(building, 'inputs.json'), `${JSON.stringify({ builtAt, inputs }, null, 1)}\n`);
  mkdirSync(dirname(outdir), { recursive: true });
  rmSync(outdir, { recursive: true, force: true });
  renameSync(building, outdir);
  process.stderr.write(`build-cli: ${relative(process.cwd(), join(outdir, 'scout.js')) || outdir} from ${inputs.length} sources\n`);
} catch (error) {
  rmSync(building, { recursive: true, force: true });
  process.stderr.write(`build-cli: the CLI could not be built (${error.message}); scout runs its TypeScript through tsx.\n`);
  process.exit(1);
}
