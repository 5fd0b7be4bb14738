/**
 * A build-time patch for linkedom 0.18.13 (pinned): every DOM node it creates registers a
 * fresh Map of event listeners in a module-level WeakMap, in the EventTarget constructor.
 * Scout parses tens of thousands of nodes per page and never listens to events on them; a
 * CPU profile of the Python-docs crawl showed that constructor plus the garbage collector's
 * work on those WeakMap entries as linkedom's biggest costs. The patch creates the Map on the
 * first addEventListener instead (dispatch already copes with a node that has none).
 * Measured in Node on the Python docs (530 pages): 20.7–22.2 → 15.2–18.2 ms per page.
 */
import { applyReplacements, type Replacements } from './source-patch';

const REPLACEMENTS: Replacements = [
  ['  constructor() {\n    wm.set(this, new Map);\n  }', '  constructor() {\n  }'],
  ['  addEventListener(type, listener, options) {\n    const map = wm.get(this);', '  addEventListener(type, listener, options) {\n    let map = wm.get(this);\n    if (!map) wm.set(this, map = new Map);'],
  ['    const map = wm.get(this);\n    if (map.has(type)) {', '    const map = wm.get(this);\n    if (map && map.has(type)) {'],
];

/** The patched source; throws when linkedom's code is not the one this patch was written for. */
export const lazyListeners = (code: string): string => applyReplacements(code, REPLACEMENTS, 'scripts/linkedom-lazy-listeners.ts');

/** The module this patch rewrites: linkedom's EventTarget module, in its ES and CommonJS builds alike. */
export const EVENT_TARGET_MODULE = /[\\/]linkedom[\\/].*interface[\\/]event-target\.js$/;
