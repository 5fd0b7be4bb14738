import type { Curation } from './types';

/** The curation lists that hold page keys, each a choice the Review toggles page by page. */
export type PageList = 'optional' | 'excluded' | 'included';

/**
 * The curation with `key` added to `list`, or taken off it when it is there: one click brings a
 * page that is not documentation back (`included`), the next sends it away again.
 */
export function toggleKey(curation: Curation, list: PageList, key: string): Curation {
  const current = new Set(curation[list] ?? []);
  if (current.has(key)) current.delete(key);
  else current.add(key);
  return { ...curation, [list]: [...current] };
}
