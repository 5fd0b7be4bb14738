// Astro 5.18's content store loses pages on a big site. Saves are debounced; a save that
// arrives while the previous one is still being written is queued, but the queued rewrite
// writes the *older* data (MutableDataStore#writeFileAtomic re-sends its own argument), and
// the final save returns before anything lands. With Node's 60 API pages (23 MB of rendered
// HTML) the build then sees ~24 of 60 pages and fails on the sidebar. This chains the
// store's saves so each waits for the one before and resolves once its own data is on disk.
//   node patch-astro.mjs <node_modules dir>
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const file = join(process.argv[2], 'astro/dist/content/mutable-data-store.js');
const code = readFileSync(file, 'utf8');
const from = 'await this.#writeFileAtomic(this.#file, this.toString());';
const to = 'const data = this.toString(); /* scout-matrix-patched */\n      await (this.scoutSaves = (this.scoutSaves ?? Promise.resolve()).then(() => this.#writeFileAtomic(this.#file, data)));';
if (!code.includes('scout-matrix-patched')) {
  if (!code.includes(from)) throw new Error(`patch-astro: "${from}" not found in ${file} (astro upgraded? check the fix is still needed)`);
  writeFileSync(file, code.replace(from, to));
}
