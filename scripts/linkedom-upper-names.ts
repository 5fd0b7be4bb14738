/**
 * A build-time patch for linkedom 0.18.13 (pinned), beside the other two: every read of an HTML
 * element's `nodeName` or `tagName` upper-cases its `localName` afresh, a new string each time.
 * Turndown reads `nodeName` several times per node (block, void, code and rule checks), so a
 * page's conversion made hundreds of thousands of these strings; a CPU profile of conversion in
 * Node showed linkedom's `localCase` as 3 % of the time on its own, before the garbage it leaves.
 * The patch keeps each upper-cased name once (the first 500 distinct names; a page of invented
 * tag names beyond that is upper-cased as before), so every read returns the same string.
 */
import { applyReplacements, type Replacements } from './source-patch';

const REPLACEMENTS: Replacements = [
  [
    'export const localCase = ({localName, ownerDocument}) => {\n  return ownerDocument[MIME].ignoreCase ? localName.toUpperCase() : localName;\n};',
    `const UPPER_NAMES = new Map;
export const localCase = ({localName, ownerDocument}) => {
  if (!ownerDocument[MIME].ignoreCase) return localName;
  let upper = UPPER_NAMES.get(localName);
  if (upper === undefined) {
    upper = localName.toUpperCase();
    if (UPPER_NAMES.size < 500) UPPER_NAMES.set(localName, upper);
  }
  return upper;
};`,
  ],
];

/** The patched source; throws when linkedom's code is not the one this patch was written for. */
export const upperNames = (code: string): string => applyReplacements(code, REPLACEMENTS, 'scripts/linkedom-upper-names.ts');

/** The module this patch rewrites: linkedom's shared utilities module, in its ES and CommonJS builds alike. */
export const UTILS_MODULE = /[\\/]linkedom[\\/].*shared[\\/]utils\.js$/;
