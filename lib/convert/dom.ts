/**
 * The DOM behind one interface. lib/ runs in Node and in the MV3 service worker, where there is
 * no `DOMParser` or `document`, so HTML is parsed by linkedom there; extension pages and offscreen
 * documents have the browser's native parser, which is much faster. Callers pick an adapter and
 * the rest of the pipeline only sees a `Document`.
 */
import { parseHTML } from 'linkedom';

/** Parses an HTML string into a `Document`. Parsing only: nothing is ever executed. */
export interface DomAdapter {
  /** A short name for logs and measurements, e.g. `linkedom` or `native`. */
  name: string;
  /** Parses a whole page or a fragment; the result always has `documentElement`, `head` and `body`. */
  parse(html: string): Document;
}

// Past this many characters a page without `<html` near the top is treated as a fragment: a real
// page declares it before any content, and scanning megabytes for it would cost more than it saves.
const HTML_TAG_WINDOW = 64 * 1024;
const HTML_TAG = /<html[\s>]/i;
const HEAD_OR_BODY_TAG = /<(?:head|body)[\s>]/i;

/**
 * linkedom is not an HTML5 tree builder: a fragment becomes a document whose `documentElement`
 * is the fragment's first element and whose body is empty, and an empty string yields no
 * `documentElement` at all (its `body` getter then throws). Wrapping fragments restores the shape
 * a browser would build.
 */
function wrapFragment(html: string): string {
  const window = html.length > HTML_TAG_WINDOW ? html.slice(0, HTML_TAG_WINDOW) : html;
  if (HTML_TAG.test(window)) return html;
  if (HEAD_OR_BODY_TAG.test(window)) return `<html>${html}</html>`;
  return `<html><head></head><body>${html}</body></html>`;
}

/**
 * `<html><title>T</title><p>text</html>` (no head or body tags) leaves the content as children
 * of `<html>`, outside the body linkedom creates on demand. Move such strays into the body.
 */
function adoptStrays(document: Document): void {
  const root = document.documentElement;
  const body = document.body;
  if (!root || !body) return;
  let node = root.firstChild;
  while (node) {
    const next = node.nextSibling;
    if (node !== body && node !== document.head) body.appendChild(node);
    node = next;
  }
}

/** linkedom: works everywhere (Node, service worker), at roughly 10–30 ms per docs page. */
export const linkedomAdapter: DomAdapter = {
  name: 'linkedom',
  parse(html: string): Document {
    const { document } = parseHTML(wrapFragment(html));
    // linkedom's document type is its own; at runtime it implements the DOM members used here.
    const doc = document as unknown as Document;
    adoptStrays(doc);
    return doc;
  },
};

/**
 * The browser's own parser, when this realm has one (extension pages, offscreen documents; not
 * the service worker). Documents from `DOMParser` never run scripts or load subresources.
 * Returns null where there is no `DOMParser`, so callers fall back to {@link linkedomAdapter}.
 */
export function nativeDomAdapter(): DomAdapter | null {
  const Parser = globalThis.DOMParser;
  if (typeof Parser !== 'function') return null;
  const parser = new Parser();
  return {
    name: 'native',
    parse: (html: string) => parser.parseFromString(html, 'text/html'),
  };
}
