/** The load hook of bench/linkedom-patched.mjs: linkedom's patched modules, the rest untouched. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { lazyListeners } from '../scripts/linkedom-lazy-listeners';
import { rawClass } from '../scripts/linkedom-raw-class';

const PATCHES: Array<[RegExp, (code: string) => string]> = [
  [/[\\/]linkedom[\\/]esm[\\/]interface[\\/]event-target\.js$/, lazyListeners],
  [/[\\/]linkedom[\\/]esm[\\/]shared[\\/]parse-from-string\.js$/, rawClass],
];

type Load = (url: string, context: object) => Promise<{ format?: string | null; source?: unknown; shortCircuit?: boolean }>;

export async function load(url: string, context: object, next: Load) {
  const patch = PATCHES.find(([file]) => file.test(url))?.[1];
  if (!patch) return next(url, context);
  return { format: 'module', source: patch(readFileSync(fileURLToPath(url), 'utf8')), shortCircuit: true };
}
