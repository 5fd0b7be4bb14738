/** The load hook of bench/linkedom-patched.mjs: linkedom's and turndown's patched modules, the rest untouched. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { lazyListeners } from '../scripts/linkedom-lazy-listeners';
import { rawClass } from '../scripts/linkedom-raw-class';
import { selectorCache } from '../scripts/linkedom-selector-cache';
import { textContent } from '../scripts/linkedom-text-content';
import { upperNames } from '../scripts/linkedom-upper-names';
import { nodeFlags, TURNDOWN_MODULE } from '../scripts/turndown-node-flags';

// SCOUT_LINKEDOM_PATCHES=lazy-listeners applies only that one (the bundle before raw-class), for a before/after.
const only = process.env.SCOUT_LINKEDOM_PATCHES?.split(',');
const PATCHES = (
  [
    ['lazy-listeners', /[\\/]linkedom[\\/]esm[\\/]interface[\\/]event-target\.js$/, lazyListeners],
    ['raw-class', /[\\/]linkedom[\\/]esm[\\/]shared[\\/]parse-from-string\.js$/, rawClass],
    ['upper-names', /[\\/]linkedom[\\/]esm[\\/]shared[\\/]utils\.js$/, upperNames],
    ['selector-cache', /[\\/]linkedom[\\/]esm[\\/]shared[\\/]matches\.js$/, selectorCache],
    ['text-content', /[\\/]linkedom[\\/]esm[\\/]interface[\\/]element\.js$/, textContent],
    ['turndown-node-flags', TURNDOWN_MODULE, nodeFlags],
  ] as Array<[string, RegExp, (code: string) => string]>
)
  .filter(([name]) => !only || only.includes(name))
  .map(([, file, patch]) => [file, patch] as const);

type Load = (url: string, context: object) => Promise<{ format?: string | null; source?: unknown; shortCircuit?: boolean }>;

export async function load(url: string, context: object, next: Load) {
  const patch = PATCHES.find(([file]) => file.test(url))?.[1];
  if (!patch) return next(url, context);
  // Node loads turndown's CommonJS build (its package's "main"), linkedom's ES modules.
  const format = /\.cjs\.js$/.test(url) ? 'commonjs' : 'module';
  return { format, source: patch(readFileSync(fileURLToPath(url), 'utf8')), shortCircuit: true };
}
