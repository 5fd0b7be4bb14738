/**
 * A build-time patch for linkedom 0.18.13 (pinned), beside the other three: every
 * `querySelector`, `querySelectorAll` and `closest` call compiles its selector afresh (css-what
 * parses it, css-select builds a matcher), though the conversion asks the same few dozen literal
 * selectors on every page. A CPU profile of conversion in Node showed that compiling as a fifth
 * of the time spent in linkedom's selector queries, and its parse trees and closures as 3-4 % of
 * the bytes a page allocates. The patch keeps each compiled matcher, per selector text and per
 * case mode (an HTML document's tag names ignore case, an XML one's do not).
 *
 * Only matchers that carry no state between calls are kept: a selector without a colon, so no
 * pseudo-class. `:scope` compiles against the element asked, and `:has()`, `:contains()` and the
 * selectors around them memoize their results per element inside the matcher, which would be stale
 * once the document changes (the conversion removes and moves elements between queries). Those
 * are compiled per call, as before. At most 500 selectors per mode are kept; others compile per call.
 *
 * A matcher asks each element tested for its tag name once per tag in the selector, and in an HTML
 * document linkedom lower-cases the name afresh each time: `h1, h2, h3, h4, h5, h6, table, pre, hr`
 * made nine new strings per element, a twentieth of the bytes a page's conversion allocated. The
 * patch keeps each lower-cased name once (the first 500 distinct names, as linkedom-upper-names.ts
 * does for upper case).
 */
import { applyReplacements, type Replacements } from './source-patch';

const REPLACEMENTS: Replacements = [
  ['export const prepareMatch = (element, selectors) => CSSselect.compile(', 'const compileMatch = (element, selectors) => CSSselect.compile('],
  [
    '\nexport const matches = (element, selectors) => CSSselect.is(',
    `
const COMPILED = [new Map, new Map];
export const prepareMatch = (element, selectors) => {
  if (typeof selectors !== 'string' || selectors.includes(':'))
    return compileMatch(element, selectors);
  const compiled = COMPILED[ignoreCase(element) ? 0 : 1];
  let match = compiled.get(selectors);
  if (match === undefined) {
    match = compileMatch(element, selectors);
    if (compiled.size < 500) compiled.set(selectors, match);
  }
  return match;
};

export const matches = (element, selectors) => CSSselect.is(`,
  ],
  [
    `const getName = (element) => {
  const {localName} = element;
  return ignoreCase(element) ? localName.toLowerCase() : localName;
};`,
    `const LOWER_NAMES = new Map;
const getName = (element) => {
  const {localName} = element;
  if (!ignoreCase(element)) return localName;
  let lower = LOWER_NAMES.get(localName);
  if (lower === undefined) {
    lower = localName.toLowerCase();
    if (LOWER_NAMES.size < 500) LOWER_NAMES.set(localName, lower);
  }
  return lower;
};`,
  ],
];

/** The patched source; throws when linkedom's code is not the one this patch was written for. */
export const selectorCache = (code: string): string => applyReplacements(code, REPLACEMENTS, 'scripts/linkedom-selector-cache.ts');

/** The module this patch rewrites: linkedom's selector module, in its ES and CommonJS builds alike. */
export const MATCHES_MODULE = /[\\/]linkedom[\\/].*shared[\\/]matches\.js$/;
