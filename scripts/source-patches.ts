/**
 * Every build-time patch of a pinned dependency, in one list. The extension's Vite build
 * (wxt.config.ts), the CLI's esbuild (scripts/build-cli.mjs) and the benchmarks' Node load hook
 * (bench/linkedom-patched-hooks.ts) all apply this list, so each runs the same linkedom (with its
 * htmlparser2) and turndown.
 */
import { EVENT_TARGET_MODULE, lazyListeners } from './linkedom-lazy-listeners';
import { parseHandlers } from './linkedom-parse-handlers';
import { PARSER_MODULE, rawClass } from './linkedom-raw-class';
import { MATCHES_MODULE, selectorCache } from './linkedom-selector-cache';
import { ELEMENT_MODULE, textContent } from './linkedom-text-content';
import { TOKENIZER_MODULE, textRuns } from './linkedom-text-runs';
import { UTILS_MODULE, upperNames } from './linkedom-upper-names';
import { nodeFlags, TURNDOWN_MODULE } from './turndown-node-flags';

export interface SourcePatch {
  /** Short name: the patch file's name without "scripts/" and ".ts". */
  name: string;
  /** The patch's own file, which a build must list among its inputs. */
  file: string;
  /** Paths of the dependency's modules it rewrites. */
  module: RegExp;
  /** The patched source; throws when the dependency's code is not the one the patch was written for. */
  patch: (code: string) => string;
}

const patch = (name: string, module: RegExp, apply: (code: string) => string): SourcePatch => ({ name, file: `scripts/${name}.ts`, module, patch: apply });

export const SOURCE_PATCHES: readonly SourcePatch[] = [
  patch('linkedom-lazy-listeners', EVENT_TARGET_MODULE, lazyListeners),
  // Each module has one entry (the CLI's esbuild and the Node load hook take the first that
  // matches): both parser patches are applied here, parse-handlers over raw-class's output.
  patch('linkedom-raw-class', PARSER_MODULE, (code) => parseHandlers(rawClass(code))),
  patch('linkedom-upper-names', UTILS_MODULE, upperNames),
  patch('linkedom-selector-cache', MATCHES_MODULE, selectorCache),
  patch('linkedom-text-content', ELEMENT_MODULE, textContent),
  patch('linkedom-text-runs', TOKENIZER_MODULE, textRuns),
  patch('turndown-node-flags', TURNDOWN_MODULE, nodeFlags),
];

/** The files the patches are made of: a build that applies them reads these too. */
export const SOURCE_PATCH_FILES: readonly string[] = [...SOURCE_PATCHES.map((p) => p.file), 'scripts/linkedom-parse-handlers.ts', 'scripts/source-patch.ts', 'scripts/source-patches.ts'];
