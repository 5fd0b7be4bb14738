/**
 * Whether a change to conversion changes its output: every page of the Python and Node docs and
 * of the generator matrix (.cache/matrix) through convertHtml with linkedom, one SHA-256 of the
 * whole ConvertedPage per page, written to a file; `--against` another run's file lists the pages
 * whose output differs. Two runs, because the two sides may need different processes: another
 * checkout's lib/ (`--lib`), or the extension bundle's linkedom patches applied in Node
 * (`node --import ./bench/linkedom-patched.mjs`, see that file).
 *
 *   npx tsx bench/convert-digest.ts --lib /tmp/base/lib --out /tmp/base.json
 *   node --import tsx --import ./bench/linkedom-patched.mjs bench/convert-digest.ts --out /tmp/new.json --against /tmp/base.json
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { arg, corpora, htmlFilesOf } from './harness';

const lib = resolve(arg('lib', 'lib'));
const { convertHtml } = (await import(resolve(lib, 'convert/convert-page.ts'))) as typeof import('../lib/convert/convert-page');
const { linkedomAdapter } = (await import(resolve(lib, 'convert/dom.ts'))) as typeof import('../lib/convert/dom');

/** Corpus name → folder: the two real docs sets and every site the matrix built. */
function folders(): Record<string, string> {
  const all = corpora();
  const out: Record<string, string> = {};
  for (const name of ['python', 'node']) {
    const dir = all[name]?.dir?.();
    if (dir) out[name] = dir;
  }
  const matrix = resolve('.cache/matrix');
  if (existsSync(matrix)) {
    for (const e of readdirSync(matrix, { withFileTypes: true })) if (e.isDirectory()) out[`matrix/${e.name}`] = `${matrix}/${e.name}`;
  }
  return out;
}

const digests: Record<string, string> = {};
for (const [name, dir] of Object.entries(folders())) {
  const files = htmlFilesOf(dir);
  for (const file of files) {
    const path = file.slice(dir.length);
    const url = `https://docs.example.test${path}`;
    const html = readFileSync(file, 'utf8');
    // The start page also finds the contents tree; every other page as the crawl converts it.
    const page = convertHtml(html, url, linkedomAdapter, { startPage: /\/index\.html$/.test(path) });
    digests[`${name}${path}`] = createHash('sha256').update(JSON.stringify(page)).digest('hex');
  }
  console.log(`${name}: ${files.length} pages`);
}
const out = arg('out', '');
if (out) writeFileSync(out, `${JSON.stringify(digests, null, 1)}\n`);
const against = arg('against', '');
if (against) {
  const before = JSON.parse(readFileSync(against, 'utf8')) as Record<string, string>;
  const keys = new Set([...Object.keys(before), ...Object.keys(digests)]);
  const differ = [...keys].filter((k) => before[k] !== digests[k]);
  console.log(`${keys.size} pages compared, ${differ.length} differ${differ.length ? `:\n  ${differ.slice(0, 50).join('\n  ')}` : ''}`);
  if (differ.length) process.exitCode = 1;
}
