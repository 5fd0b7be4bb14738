/**
 * The function Scout injects into a render tab (scripting.executeScript serializes it, so it must
 * use nothing from outside its own body). It waits until the page's DOM is quiet — no mutation
 * for a short while — or a settle limit passes, then returns the rendered document.
 */

/** What the render tab sends back. */
export interface RenderedDom {
  html: string;
  /** location.href when read: where the page's router ended up (hash routes included). */
  url: string;
  /** Every `<a href>` as the browser resolved it, fragments kept (hash routes are pages on such sites). */
  links: string[];
  /** False when the DOM was still changing at the settle limit (read anyway). */
  settled: boolean;
  /** Characters of visible text in the body. */
  textChars: number;
}

/**
 * Waits for the document's load, then for `quietMs` without DOM mutations (four times that while
 * the content has fewer than `minText` characters: a page still showing "Loading…" beside its
 * sidebar is likely waiting for data), at most until `settleMs` after injection; then reads the DOM.
 */
export async function readRenderedDom(quietMs: number, settleMs: number, minText: number): Promise<RenderedDom> {
  const started = Date.now();
  // Text of the content: <main> (or the body) without navigation, header, footer and asides, which
  // an app renders first, before the page's own data arrives (measured: a sidebar alone passed
  // for content and pages were read while still "Loading…").
  const CHROME = 'nav, header, footer, aside, [role="navigation"], [role="banner"], [role="contentinfo"]';
  const length = (el: Element | null | undefined) => ((el as HTMLElement | null | undefined)?.innerText ?? '').replace(/\s+/g, ' ').trim().length;
  const textChars = () => {
    const root = document.querySelector('main, [role="main"]') ?? document.body;
    let chars = length(root);
    for (const el of Array.from(root?.querySelectorAll(CHROME) ?? [])) if (!el.parentElement?.closest(CHROME)) chars -= length(el);
    return Math.max(0, chars);
  };
  if (document.readyState !== 'complete') {
    await new Promise<void>((resolve) => {
      addEventListener('load', () => resolve(), { once: true });
      setTimeout(resolve, settleMs);
    });
  }
  const settled = await new Promise<boolean>((resolve) => {
    let last = Date.now();
    const observer = new MutationObserver(() => {
      last = Date.now();
    });
    observer.observe(document.documentElement, { childList: true, subtree: true, characterData: true });
    const tick = () => {
      const wanted = textChars() >= minText ? quietMs : quietMs * 4;
      if (Date.now() - last >= wanted) {
        observer.disconnect();
        resolve(true);
      } else if (Date.now() - started >= settleMs) {
        observer.disconnect();
        resolve(false);
      } else setTimeout(tick, Math.min(100, quietMs));
    };
    setTimeout(tick, Math.min(100, quietMs));
  });
  const links = Array.from(document.querySelectorAll('a[href]'), (a) => (a as HTMLAnchorElement).href);
  return { html: `<!doctype html>\n${document.documentElement.outerHTML}`, url: location.href, links, settled, textChars: textChars() };
}
