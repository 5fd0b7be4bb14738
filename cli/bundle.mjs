// Where the precompiled CLI is (scripts/build-cli.mjs writes it) and whether it may run: only
// while none of the source files it was built from changed since. Shared by cli/bin.mjs, the
// benchmark and the tests; plain JavaScript, as the bin loads it before tsx.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project's folder: the sources a bundle lists are relative to it. */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The bundle `npm install` (npm run build:cli) builds. */
export const DEFAULT_BUNDLE_DIR = join(PROJECT_ROOT, '.output', 'cli');

/**
 * The entry of the bundle in `dir` when it was built after every one of its sources was last
 * changed; undefined when there is none, it cannot be read, or a source is newer (or gone).
 */
export function freshBundle(dir = DEFAULT_BUNDLE_DIR) {
  try {
    const { builtAt, inputs } = JSON.parse(readFileSync(join(dir, 'inputs.json'), 'utf8'));
    if (typeof builtAt !== 'number' || !Array.isArray(inputs) || !inputs.length) return undefined;
    // A source deleted since the build throws here: stale too.
    for (const input of inputs) if (statSync(join(PROJECT_ROOT, input)).mtimeMs > builtAt) return undefined;
    const entry = join(dir, 'scout.js');
    statSync(entry);
    return entry;
  } catch {
    return undefined;
  }
}
