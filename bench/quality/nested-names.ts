/**
 * Invariant 7 — every nested llms.txt file (and every H2 group of every file) carries a name from the
 * site's structure. Unnamed: a "(part N of M)" / "Part N of M" name, a file whose path ends in a
 * "part-N" folder, or — for a file — a generic name that says nothing of what is inside ("Docs",
 * "Pages", "Other", "More", "Misc", "General", "Contents", "Index", "Untitled"), whatever the site.
 * An H2 group is unnamed only as a numbered part: "Docs" is the name the generator gives the pages
 * a site leaves outside any group.
 */

const PART = /\(part \d+ of \d+\)\s*$|^part \d+ of \d+$/i;
const GENERIC = /^(?:docs?|documentation|pages?|other|others|more|misc(?:ellaneous)?|general|contents?|index|untitled|section|group|rest|root)(?:\s*\d+)?$/i;

/** Why a nested file's or group's name is not a name, or null when it is one. */
export function unnamedReason(name: string, path = ''): 'part' | 'generic' | 'empty' | null {
  const n = name.trim();
  if (n === '') return 'empty';
  if (PART.test(n) || /\/part-\d+\/llms\.txt$/.test(path)) return 'part';
  if (GENERIC.test(n)) return 'generic';
  return null;
}

export interface NestedNamesResult {
  /** Nested files (the root left out). */
  files: number;
  unnamed: number;
  examples: { path: string; name: string; reason: 'part' | 'generic' | 'empty'; where: 'file' | 'group' }[];
}

/** Invariant 7 over a layout: each nested file's title, and the H2 names of every file (the root's too: a split group is named there). */
export function nestedNames(files: { path: string; title: string; depth: number; text: string }[], keepExamples = 10): NestedNamesResult {
  const result: NestedNamesResult = { files: 0, unnamed: 0, examples: [] };
  const push = (path: string, name: string, where: 'file' | 'group') => {
    const reason = unnamedReason(name, where === 'file' ? path : '');
    // The root's group of the pages the site leaves outside any group is "Docs" by design: a group
    // only counts as unnamed when it is a numbered part.
    if (!reason || (where === 'group' && reason !== 'part')) return;
    result.unnamed += 1;
    if (result.examples.length < keepExamples) result.examples.push({ path, name, reason, where });
  };
  for (const file of files) {
    if (file.depth > 0) {
      result.files += 1;
      push(file.path, file.title, 'file');
    }
    for (const line of file.text.split('\n')) {
      const h2 = /^## (.+?)\s*$/.exec(line)?.[1];
      if (h2 && h2.toLowerCase() !== 'optional') push(file.path, h2, 'group');
    }
  }
  return result;
}
