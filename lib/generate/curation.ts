import type { Curation } from './types';

/** The curation lists that hold page keys, each a choice the Review toggles page by page. */
export type PageList = 'optional' | 'excluded' | 'included';

/** The curation with `key` added to `list`, or taken off it when it is there: one click does, the next undoes. */
export function toggleKey(curation: Curation, list: PageList, key: string): Curation {
  const current = new Set(curation[list] ?? []);
  if (current.has(key)) current.delete(key);
  else current.add(key);
  return { ...curation, [list]: [...current] };
}

/**
 * A page kept out as not documentation brought back into the files (`back`), or sent away again.
 * Bringing it back also undoes a Leave out, so one click always puts the page in the files.
 */
export function bringBack(curation: Curation, key: string, back: boolean): Curation {
  const included = new Set(curation.included ?? []);
  if (back) included.add(key);
  else included.delete(key);
  const excluded = back ? (curation.excluded ?? []).filter((k) => k !== key) : curation.excluded;
  return { ...curation, included: [...included], ...(excluded ? { excluded } : {}) };
}
