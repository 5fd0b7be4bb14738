/**
 * A build-time patch for linkedom 0.18.13 (pinned), beside the lazy-listeners one: while parsing,
 * linkedom assigns every `class` attribute to `element.className`, which builds a DOMTokenList (a
 * Set) for the element, splits the value, and writes the joined tokens back to the attribute.
 * Scout reads classes on a few elements per page; a CPU profile of conversion showed that work
 * (and the garbage it leaves) as a fifth of the steps in Node with the listener patch. Without the
 * assignment the attribute keeps its value as written (what a browser's parser keeps), and the
 * token list is still built, from that value, on first use of `classList`, `className` or
 * `getAttribute('class')`, so those answer as before.
 * Measured in Node on the Python docs (530 pages, whole convertHtml): see bench/results/
 * profile-steps-2026-11-23-raw-class.json.
 */
import { applyReplacements, type Replacements } from './source-patch';

const REPLACEMENTS: Replacements = [["  if (attribute.name === 'class')\n    element.className = value;\n", '']];

/** The patched parser source; throws when linkedom's code is not the one this patch was written for. */
export const rawClass = (code: string): string => applyReplacements(code, REPLACEMENTS, 'scripts/linkedom-raw-class.ts');

/** The module this patch rewrites: linkedom's parser, in its ES and CommonJS builds alike. */
export const PARSER_MODULE = /[\\/]linkedom[\\/].*shared[\\/]parse-from-string\.js$/;
