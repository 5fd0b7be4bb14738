#!/usr/bin/env node
// The `scout` bin (package.json). It runs the precompiled CLI (scripts/build-cli.mjs, which
// `npm install` runs) when that is at least as new as every source file it was built from, and
// otherwise loads tsx from this package's own dependencies and runs the TypeScript: a checkout
// whose sources were edited (or pulled) since the build runs what is in cli/ and lib/, never a
// stale bundle, and one without a bundle works as well, only slower to start.
// SCOUT_CLI_BUNDLE: another bundle folder (inside the project), or "off" for the TypeScript.
// A command that runs with Node flags of its own (cli/node-flags.mjs) runs in a Node started
// again with them, through this same bin.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DEFAULT_BUNDLE_DIR, freshBundle } from './bundle.mjs';
import { relaunchWithNodeFlags } from './node-flags.mjs';

// Relaunched, the child ran the command and this process ends as it did.
if (!(await relaunchWithNodeFlags(fileURLToPath(import.meta.url)))) {
  const setting = process.env.SCOUT_CLI_BUNDLE;
  const bundle = setting === 'off' ? undefined : freshBundle(setting || DEFAULT_BUNDLE_DIR);
  if (bundle) {
    await import(pathToFileURL(bundle).href);
  } else {
    const { register } = await import('tsx/esm/api');
    register();
    await import('./scout.ts');
  }
}
