/** The load hook of bench/linkedom-patched.mjs: linkedom's and turndown's patched modules, the rest untouched. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SOURCE_PATCHES } from '../scripts/source-patches';

// SCOUT_LINKEDOM_PATCHES=lazy-listeners applies only that one (the bundle before raw-class), for a
// before/after; a name may leave out its "linkedom-", as the commands in bench/results/ do.
const only = process.env.SCOUT_LINKEDOM_PATCHES?.split(',');
const PATCHES = SOURCE_PATCHES.filter(({ name }) => !only || only.includes(name) || only.includes(name.replace(/^linkedom-/, '')));

type Load = (url: string, context: object) => Promise<{ format?: string | null; source?: unknown; shortCircuit?: boolean }>;

export async function load(url: string, context: object, next: Load) {
  const patch = PATCHES.find(({ module }) => module.test(url))?.patch;
  if (!patch) return next(url, context);
  // Node loads turndown's CommonJS build (its package's "main"), linkedom's ES modules.
  const format = /\.cjs\.js$|[\\/]cjs[\\/]/.test(url) ? 'commonjs' : 'module';
  return { format, source: patch(readFileSync(fileURLToPath(url), 'utf8')), shortCircuit: true };
}
