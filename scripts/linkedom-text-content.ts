/**
 * A build-time patch for linkedom 0.18.13 (pinned), beside the others: an element's `textContent`
 * collects its text nodes' data in a new array and joins it, even when there is one text node (a
 * link, a code span, a heading: most elements). Turndown reads `textContent` of every element it
 * converts (its blank check and its whitespace check), so a page made thousands of one-item arrays
 * and joined strings; a CPU profile of conversion in Node showed linkedom's `textContent` as ~3 %
 * of the time. The patch returns a lone text node's data as it is and builds the array only from
 * the second text node on; the string returned is the same.
 */
import { applyReplacements, type Replacements } from './source-patch';

const REPLACEMENTS: Replacements = [
  [
    `  get textContent() {
    const text = [];
    let {[NEXT]: next, [END]: end} = this;
    while (next !== end) {
      const nodeType = next.nodeType;
      if (nodeType === TEXT_NODE || nodeType === CDATA_SECTION_NODE)
        text.push(next.textContent);
      next = next[NEXT];
    }
    return text.join('');
  }`,
    `  get textContent() {
    let first = '';
    let text = null;
    let {[NEXT]: next, [END]: end} = this;
    while (next !== end) {
      const nodeType = next.nodeType;
      if (nodeType === TEXT_NODE || nodeType === CDATA_SECTION_NODE) {
        if (text) text.push(next.textContent);
        else if (first === '') first = next.textContent;
        else text = [first, next.textContent];
      }
      next = next[NEXT];
    }
    return text ? text.join('') : first;
  }`,
  ],
];

/** The patched source; throws when linkedom's code is not the one this patch was written for. */
export const textContent = (code: string): string => applyReplacements(code, REPLACEMENTS, 'scripts/linkedom-text-content.ts');

/** The module this patch rewrites: linkedom's Element module, in its ES and CommonJS builds alike. */
export const ELEMENT_MODULE = /[\\/]linkedom[\\/].*interface[\\/]element\.js$/;
