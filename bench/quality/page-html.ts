/**
 * Each converted page's own HTML, fetched again after the crawl and read into its facts
 * (page-facts.ts) for the invariants. The crawl does not keep HTML; the served site is the same
 * bytes, so what the scorecard holds the Markdown to is what the crawler converted.
 */
import { linkedomAdapter } from '../../lib/convert/dom';
import { pageFacts, type PageFacts } from './page-facts';

const TIMEOUT_MS = 20_000;
const ATTEMPTS = 3;

/** Facts by page key for the pages converted from HTML (a Markdown twin has no HTML to compare with). */
export async function factsOfPages(pages: { key: string; finalUrl: string; format: 'markdown' | 'html' }[], fetch: typeof globalThis.fetch): Promise<Map<string, PageFacts>> {
  const out = new Map<string, PageFacts>();
  for (const page of pages) {
    if (page.format !== 'html') continue;
    // A loaded machine drops the odd loopback connection: one more try before leaving the page out.
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try {
        const response = await fetch(page.finalUrl, { signal: AbortSignal.timeout(TIMEOUT_MS) });
        if (response.ok) out.set(page.key, pageFacts(linkedomAdapter.parse(await response.text())));
        break;
      } catch (error) {
        if (attempt === ATTEMPTS) console.warn(`${page.finalUrl}: could not read its HTML again (${error instanceof Error ? error.message : String(error)}); left out of the invariants`);
      }
    }
  }
  return out;
}
