/**
 * The head-to-head of `npm run quality` (#32): for a matrix site whose generator wrote its own
 * llms.txt (MatrixSite.generatorLlms, kept out of the served site by scripts/build-matrix.sh),
 * Scout's files and the generator's side by side, by the pure figures of head-to-head.ts.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MatrixSite } from '../../tests/fixtures/matrix';
import { markdownTable } from './scorecard';
import { HEAD_TO_HEAD_HEADER, headToHead, headToHeadRow, servedPageOf, worseRows, type HeadToHeadFigures } from './head-to-head';

export interface HeadToHead {
  /** The plugin that wrote the generator's files ("vitepress-plugin-llms@1.14.0"), from the build's `.by` file. */
  by: string;
  scout: HeadToHeadFigures;
  own: HeadToHeadFigures;
  /** Rows where Scout is worse, in words (empty when it is at least as good on every row). */
  scoutWorse: string[];
}

/** Paths of the HTML files under `root` ('/index.html', '/classes/Command.html'). */
function htmlFiles(root: string, prefix = '/'): string[] {
  return readdirSync(join(root, prefix), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? htmlFiles(root, `${prefix}${e.name}/`) : e.name.endsWith('.html') ? [`${prefix}${e.name}`] : [],
  );
}

/**
 * The pages either llms.txt could list: those built from Markdown (the site's sources, by their
 * paths), and the built folder's other HTML pages within the docs (under the start path) that
 * no source stands for — the pages a generator builds from code, as TypeDoc builds all but its
 * README's. Not the site's 404.html, which static hosts serve for any missing path.
 */
export function servedPages(site: Pick<MatrixSite, 'sources' | 'folder' | 'startPath'>): string[] {
  const paths = Object.keys(site.sources ?? {});
  if (!site.folder || !existsSync(site.folder.root)) return paths;
  const served = new Set(paths);
  const under = site.startPath.replace(/[^/]*$/, '');
  const others = htmlFiles(site.folder.root)
    .filter((file) => file !== '/404.html' && file.startsWith(under))
    .filter((file) => servedPageOf(file, served, []) === null);
  return [...paths, ...others];
}

/** Both files' figures for one site; `hosts` are the crawl's host:port (Scout's links name it). */
export function generatorHeadToHead(site: MatrixSite, scout: { llmsTxt: string; llmsFullTxt: string }, hosts: string[], read: (path: string) => string): HeadToHead {
  const dir = site.generatorLlms ?? '';
  const file = (name: string) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8') : '');
  if (!file('llms.txt')) throw new Error(`${site.id}: the generator's llms.txt is missing from ${dir}. Run: bash scripts/build-matrix.sh`);
  const paths = servedPages(site);
  const sources = [...new Set(Object.values(site.sources ?? {}))].filter((p) => existsSync(p)).map(read);
  const common = { servedPaths: paths, hosts: [site.host, ...hosts], topSections: site.topSections, sources };
  const mine = headToHead({ ...common, llmsTxt: scout.llmsTxt, llmsFullTxt: scout.llmsFullTxt });
  const own = headToHead({ ...common, llmsTxt: file('llms.txt'), llmsFullTxt: file('llms-full.txt') });
  return { by: file('.by').trim() || 'generator', scout: mine, own, scoutWorse: worseRows(mine, own) };
}

/** The second table of `npm run quality`, with the rows where Scout is worse under it; null when no site has one. */
export function headToHeadTable(runs: { id: string; headToHead?: HeadToHead }[]): string | null {
  const with_ = runs.filter((r) => r.headToHead);
  if (!with_.length) return null;
  const rows = with_.flatMap((r) => {
    const h = r.headToHead as HeadToHead;
    return [headToHeadRow(r.id, 'Scout', h.scout), headToHeadRow(r.id, h.by, h.own)];
  });
  const notes = with_.map((r) => {
    const h = r.headToHead as HeadToHead;
    const lost = (f: HeadToHeadFigures) => f.headingsLost.slice(0, 4).map((l) => `“${l.text}” ×${l.missing}`).join(', ');
    const lines = [`* ${r.id}: Scout is ${h.scoutWorse.length ? `worse on ${h.scoutWorse.join('; ')}` : 'at least as good on every row'}`];
    if (h.scout.unlisted.length) lines.push(`  * pages Scout does not list: ${h.scout.unlisted.slice(0, 6).join(', ')}${h.scout.unlisted.length > 6 ? ', …' : ''}`);
    if (h.scout.headingsLost.length) lines.push(`  * headings Scout's llms-full.txt lacks (most often): ${lost(h.scout)}`);
    if (h.own.headingsLost.length) lines.push(`  * headings ${h.by}'s llms-full.txt lacks: ${lost(h.own)}`);
    lines.push(`  * sections: Scout ${h.scout.sections.map((s) => `“${s}”`).join(', ') || '—'}; ${h.by} ${h.own.sections.map((s) => `“${s}”`).join(', ') || '—'}`);
    return lines.join('\n');
  });
  return `${markdownTable(HEAD_TO_HEAD_HEADER, rows)}\n\n${notes.join('\n')}`;
}
