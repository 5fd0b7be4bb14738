import type { DiscoveredKind } from './types';

/** File names an llms.txt-family file may have at any directory level (spec v2 allows any path). */
export const LLMS_NAMES = ['llms.txt', 'llms-full.txt', 'llms.md', 'llms.mdx', 'llms.markdown'] as const;

/** Deep URLs would multiply probes; docs rarely nest an llms.txt deeper than this. */
const MAX_LEVELS = 8;

export interface ProbeCandidate {
  url: string;
  kind: DiscoveredKind;
  /** Lower runs first and ranks first when several files could be "the" one. */
  priority: number;
}

/**
 * Directories from the page's own up to the root: /docs/a/b → /docs/a/, /docs/, /.
 * A path ending in "/" is itself a directory.
 */
export function directoryChain(pageUrl: string): string[] {
  const { pathname } = new URL(pageUrl);
  const parts = pathname.split('/').slice(1, -1).filter(Boolean);
  const dirs: string[] = [];
  for (let i = parts.length; i >= 0; i--) dirs.push(`/${parts.slice(0, i).map((p) => `${p}/`).join('')}`);
  return dirs.slice(0, MAX_LEVELS - 1).concat(dirs.length > MAX_LEVELS - 1 ? ['/'] : []);
}

/** The kind a discovered llms-family file has, by its name. */
export function llmsKindOf(url: string): DiscoveredKind {
  const name = new URL(url).pathname.split('/').pop()?.toLowerCase() ?? '';
  return name.startsWith('llms-full') ? 'llms-full' : 'llms';
}

/**
 * Every llms location to probe for a page, most specific first, then the
 * non-standard /.well-known/llms.txt last (some sites use it; the spec does not).
 */
export function llmsProbeCandidates(pageUrl: string): ProbeCandidate[] {
  const { origin } = new URL(pageUrl);
  const out: ProbeCandidate[] = [];
  directoryChain(pageUrl).forEach((dir, level) => {
    LLMS_NAMES.forEach((name, i) => {
      const url = `${origin}${dir}${name}`;
      out.push({ url, kind: llmsKindOf(url), priority: level * 10 + i });
    });
  });
  out.push({ url: `${origin}/.well-known/llms.txt`, kind: 'well-known', priority: 10_000 });
  return out;
}
