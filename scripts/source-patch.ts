/**
 * Build-time patches of a pinned dependency's source (the linkedom and turndown ones beside this file): each
 * is a list of exact replacements that must all apply, so an upgraded dependency fails the build
 * with a clear message instead of bundling half a patch.
 */
import type { Plugin } from 'vite';

export type Replacements = Array<[from: string, to: string]>;

/** The patched source; throws when the code is not the one the patch in `file` was written for. */
export function applyReplacements(code: string, replacements: Replacements, file: string, dependency = 'linkedom'): string {
  return replacements.reduce((out, [from, to]) => {
    if (!out.includes(from)) throw new Error(`${dependency} changed: ${file} no longer applies (update or drop it)`);
    return out.replace(from, to);
  }, code);
}

/** A Vite plugin applying `patch` to the modules whose path matches `module`, in the extension bundle. */
export function sourcePatchPlugin(name: string, module: RegExp, patch: (code: string) => string): Plugin {
  return {
    name,
    enforce: 'pre',
    transform(code, id) {
      return module.test(id.split('?')[0] ?? '') ? patch(code) : null;
    },
  };
}
