/**
 * The publishing kit (#19 part 2): one zip that unpacks onto a site. `site/` holds the generated
 * llms.txt files at their paths (flat, or nested per section as the Output tab lays them out),
 * llms-full.txt beside each, and a `.md` twin for every page in the chosen layout; `snippets/`
 * holds what serves them (see snippets.ts); README.md says where each part goes.
 */
import { strToU8, zipSync, type Zippable } from 'fflate';
import { markdownTwinCandidates } from '../fetch/page-fetcher';
import { chromeStripper, learnChrome, type ChromeModel } from '../generate/boilerplate';
import { PathSet } from '../generate/safe-path';
import { buildSnippets, llmsFor, twinDirective, type Snippets, type TwinLayout } from './snippets';

export type { TwinLayout } from './snippets';

export interface KitInput {
  origin: string;
  /** The llms.txt and llms-full.txt files by their path on the site, the root first. */
  files: Array<{ path: string; text: string }>;
  /** The crawl's stored pages. */
  pages: Array<{ url: string; markdown: string }>;
  layout: TwinLayout;
  /** The chrome llms-full.txt left out of each page (the version's, `outputChrome`); without one it is learned from `pages`. */
  chrome?: ChromeModel;
}

export interface Kit {
  /** Zip paths → text, in the order they are written. */
  files: Map<string, string>;
  snippets: Snippets;
  /** Twins written, and pages left out with why (another origin, a query string, a Markdown page). */
  twins: number;
  skipped: Array<{ url: string; reason: string }>;
  /** llms.txt and llms-full.txt files whose path on the site cannot be a file on every system (safe-path.ts), with why. */
  leftOut: Array<{ path: string; reason: string }>;
}

/** The file names of the snippets in the zip. */
export const SNIPPET_FILES: Record<keyof Snippets, string> = { html: 'snippets/head.html', directive: 'snippets/directive.html', nginx: 'snippets/nginx.conf', apache: 'snippets/apache.conf', netlify: 'snippets/_headers', vercel: 'snippets/vercel.json' };

/**
 * The twin of a page on the site, in the layout: v1 `page.html.md` / `index.html.md`, v2
 * `page.md` / `index.md` (an extensionless `page` is `page.md` in both). The same rule the
 * crawler follows when it looks for twins (markdownTwinCandidates). Null for a page that has none.
 */
export function twinPathOf(url: string, layout: TwinLayout): string | null {
  const candidates = markdownTwinCandidates(url);
  const twin = layout === 'html.md' ? candidates[0] : candidates[candidates.length - 1];
  return twin ? new URL(twin).pathname : null;
}

function readme(input: KitInput, kit: Omit<Kit, 'files'>, llmsCount: number): string {
  const form = input.layout === 'html.md' ? 'v1: page.html → page.html.md, folder/ → folder/index.html.md' : 'v2: page.html → page.md, folder/ → folder/index.md';
  return [
    `# Publishing kit for ${new URL(input.origin).host}`,
    '',
    'Made by llms.txt Scout. Copy the contents of `site/` onto the root of the published site, then add one of the snippets to the server.',
    '',
    `* \`site/\` — ${llmsCount} llms.txt file${llmsCount === 1 ? '' : 's'} with the llms-full.txt beside each, at their paths, and ${kit.twins} Markdown twins (${form}).`,
    '* `snippets/head.html` — `<link rel="describedby">` and `<link rel="alternate" type="text/markdown">` for the page template.',
    '* `snippets/directive.html` — “For the complete documentation index, see llms.txt” for the top of every page (the twins start with it already).',
    '* `snippets/nginx.conf` — `Link:` headers, the `.md` type and `Accept: text/markdown` for nginx (two parts: `http { }` and `server { }`).',
    '* `snippets/apache.conf` — the same for Apache 2.4 (virtual host or `.htaccess`).',
    '* `snippets/_headers` — Netlify: save as `_headers` in the publish folder.',
    '* `snippets/vercel.json` — Vercel: merge its `headers` into the project\'s `vercel.json`.',
    ...(kit.leftOut.length ? ['', `${kit.leftOut.length} llms file${kit.leftOut.length === 1 ? ' is' : 's are'} left out, as a file published at another path would not be found: ${kit.leftOut.slice(0, 5).map((l) => `${l.path} (${l.reason})`).join('; ')}${kit.leftOut.length > 5 ? '; …' : ''}`] : []),
    ...(kit.skipped.length ? ['', `${kit.skipped.length} page${kit.skipped.length === 1 ? ' has' : 's have'} no twin: ${kit.skipped.slice(0, 5).map((s) => `${s.url} (${s.reason})`).join('; ')}${kit.skipped.length > 5 ? '; …' : ''}`] : []),
    '',
  ].join('\n');
}

/**
 * Lays out the kit. Pure: the panel zips it, tests read it. Every file must sit at its exact path
 * on the site, so a path that cannot be a file on every system (a `..`, a backslash, a device
 * name: safe-path.ts) is never renamed: the file is left out, and README.md says why.
 */
export function buildKit(input: KitInput): Kit {
  const files = new Map<string, string>();
  const taken = new PathSet();
  for (const name of [...Object.values(SNIPPET_FILES), 'README.md']) taken.claim(name);
  const leftOut: Kit['leftOut'] = [];
  for (const file of input.files) {
    const place = taken.placeSiteFile(file.path, 'site/');
    if ('again' in place) continue;
    if ('path' in place) files.set(place.path, file.text);
    else leftOut.push({ path: file.path, reason: place.reason });
  }
  const llmsPaths = input.files.filter((f) => /\/llms\.txt$/.test(f.path) && !leftOut.some((l) => l.path === f.path)).map((f) => f.path);
  // Each twin as llms-full.txt has its page: without the chrome the site repeats on every page.
  const strip = chromeStripper(input.chrome ?? learnChrome(input.pages.map((p) => p.markdown)));
  const skipped: Kit['skipped'] = [];
  const pages: Array<{ path: string; twin: string }> = [];
  for (const page of input.pages) {
    const url = new URL(page.url);
    if (url.origin !== input.origin) skipped.push({ url: page.url, reason: 'on another origin' });
    else if (url.search) skipped.push({ url: page.url, reason: 'its address has a query string, which a static file cannot have' });
    else {
      const twin = twinPathOf(page.url, input.layout);
      if (!twin) {
        skipped.push({ url: page.url, reason: 'the page is Markdown or text already' });
        continue;
      }
      const place = taken.placeSiteFile(twin, 'site/');
      if ('again' in place) continue;
      if ('path' in place) {
        // The directive first, by full address: an agent handed the twin alone still learns where the index is.
        files.set(place.path, `${twinDirective(`${input.origin}${llmsFor(url.pathname, llmsPaths.length ? llmsPaths : ['/llms.txt'])}`)}\n\n${strip(page.markdown)}`);
        pages.push({ path: url.pathname, twin });
      } else skipped.push({ url: page.url, reason: place.clash ? `its twin ${twin} cannot be written: ${place.reason}` : `its twin cannot be a file on every system: ${place.reason}` });
    }
  }
  const snippets = buildSnippets({ llmsPaths: llmsPaths.length ? llmsPaths : ['/llms.txt'], pages, layout: input.layout });
  for (const [key, name] of Object.entries(SNIPPET_FILES) as Array<[keyof Snippets, string]>) files.set(name, snippets[key]);
  const kit = { snippets, twins: pages.length, skipped, leftOut };
  files.set('README.md', readme(input, kit, llmsPaths.length));
  return { files, ...kit };
}

/** The kit as a zip. */
export function zipKit(kit: Kit): Uint8Array {
  const zippable: Zippable = {};
  for (const [path, text] of kit.files) zippable[path] = strToU8(text);
  return zipSync(zippable, { level: 6 });
}
