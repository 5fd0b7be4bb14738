/**
 * The browser half of bench/lanes.ts, bundled by it into a plain page: the converter's two DOMs
 * in one Chromium thread, page by page, so their costs compare without the crawl around them.
 */
import { convertHtml } from '../lib/convert/convert-page';
import { linkedomAdapter, nativeDomAdapter } from '../lib/convert/dom';

/** `native` / `linkedom`: the whole convertHtml; `… parse`: parsing alone, what the rest is added to. */
export type Lane = 'native' | 'linkedom' | 'native parse' | 'linkedom parse';

async function run(urls: string[], lane: Lane): Promise<{ ms: number; pages: number; markdownChars: number }> {
  const bodies = await Promise.all(urls.map(async (url) => ({ url, html: await (await fetch(url)).text() })));
  const dom = lane.startsWith('native') ? nativeDomAdapter() : linkedomAdapter;
  if (!dom) throw new Error('no DOMParser in this realm');
  let chars = 0;
  const parseOnly = lane.endsWith('parse');
  const started = performance.now();
  for (const { url, html } of bodies) chars += parseOnly ? (dom.parse(html).body?.childElementCount ?? 0) : convertHtml(html, url, dom).markdown.length;
  return { ms: performance.now() - started, pages: bodies.length, markdownChars: chars };
}

(globalThis as { lanesRun?: typeof run }).lanesRun = run;
