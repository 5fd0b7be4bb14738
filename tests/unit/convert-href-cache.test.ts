import { afterEach, describe, expect, it } from 'vitest';
import { convertHtml } from '../../lib/convert/convert-page';
import { linkedomAdapter } from '../../lib/convert/dom';

const RealURL = globalThis.URL;
afterEach(() => {
  globalThis.URL = RealURL;
});

/** Counts `new URL(...)` calls while `run` runs. */
function countUrls(run: () => void): number {
  let count = 0;
  globalThis.URL = class extends RealURL {
    constructor(url: string | URL, base?: string | URL) {
      super(url, base);
      count++;
    }
  } as typeof URL;
  try {
    run();
  } finally {
    globalThis.URL = RealURL;
  }
  return count;
}

describe('href resolution in convertHtml', () => {
  it('parses each distinct href once for all steps (links, navigation, content), not once per step', () => {
    const n = 500;
    const items = Array.from({ length: n }, (_, k) => `<li><a href="/docs/p${k}.html">Page ${k}</a></li>`).join('');
    const html = `<html><head><title>Index</title></head><body><nav class="sidebar"><ul>${items}</ul></nav><main><h1>Index</h1><ul>${items}</ul><p><a href="#top">Top</a> <a href="mailto:a@b.test">Mail</a></p></main></body></html>`;
    let page: ReturnType<typeof convertHtml> | undefined;
    const parsed = countUrls(() => {
      page = convertHtml(html, 'https://docs.example.test/docs/index.html', linkedomAdapter, { startPage: true });
    });
    expect(page?.links.length).toBe(n + 1);
    expect(page?.navLinks.length).toBe(n);
    expect(page?.markdown).toContain('- [Page 7](https://docs.example.test/docs/p7.html)');
    expect(page?.markdown).toContain('[Mail](mailto:a@b.test)');
    // The 502 distinct hrefs, plus a few for the page URL and metadata; three steps each parsing them all would be 1,500+.
    expect(parsed).toBeLessThan(n + 20);
  });
});
