import { diffLines } from 'diff';

export interface DiffRow {
  kind: 'same' | 'added' | 'removed' | 'gap';
  text: string;
  /** Line number in the older text (same, removed) and in the newer one (same, added). */
  oldLine?: number;
  newLine?: number;
  /** For 'gap': how many unchanged lines are folded away. */
  hidden?: number;
}

export interface LineDiff {
  rows: DiffRow[];
  added: number;
  removed: number;
  /**
   * Set when the versions were too far apart to diff within the limits: no rows, and `added` /
   * `removed` are the two versions' line counts, not the changes.
   */
  tooDifferent?: { olderLines: number; newerLines: number };
}

/**
 * How far a diff may go before it stops: Myers' diff costs about (lines × edits), so two
 * multi-megabyte llms-full.txt versions that differ throughout took long enough to freeze the
 * History tab that draws it.
 */
export interface DiffLimits {
  /** Give up after this long. */
  timeoutMs: number;
  /** Give up beyond this many changed lines. */
  maxEditLength: number;
}

export const DIFF_LIMITS: DiffLimits = { timeoutMs: 300, maxEditLength: 5_000 };

const lineCount = (text: string) => (text === '' ? 0 : text.replace(/\n$/, '').split('\n').length);

/**
 * A line diff of two versions of a file (jsdiff's Myers diff), with long runs of
 * unchanged lines folded to `context` lines around each change — an llms-full.txt
 * is thousands of lines and the reader wants the changes.
 */
export function lineDiff(older: string, newer: string, context = 2, limits: DiffLimits = DIFF_LIMITS): LineDiff {
  const parts = diffLines(older, newer, { timeout: limits.timeoutMs, maxEditLength: limits.maxEditLength });
  if (!parts) {
    const olderLines = lineCount(older);
    const newerLines = lineCount(newer);
    return { rows: [], added: newerLines, removed: olderLines, tooDifferent: { olderLines, newerLines } };
  }
  const rows: DiffRow[] = [];
  let oldLine = 1;
  let newLine = 1;
  let added = 0;
  let removed = 0;
  for (const part of parts) {
    const lines = part.value.replace(/\n$/, '').split('\n');
    for (const text of lines) {
      if (part.added) {
        rows.push({ kind: 'added', text, newLine: newLine++ });
        added++;
      } else if (part.removed) {
        rows.push({ kind: 'removed', text, oldLine: oldLine++ });
        removed++;
      } else rows.push({ kind: 'same', text, oldLine: oldLine++, newLine: newLine++ });
    }
  }
  return { rows: fold(rows, context), added, removed };
}

function fold(rows: DiffRow[], context: number): DiffRow[] {
  const near = rows.map(() => false);
  rows.forEach((r, i) => {
    if (r.kind === 'same') return;
    for (let j = Math.max(0, i - context); j <= Math.min(rows.length - 1, i + context); j++) near[j] = true;
  });
  const out: DiffRow[] = [];
  for (let i = 0; i < rows.length; ) {
    if (near[i]) {
      out.push(rows[i] as DiffRow);
      i++;
      continue;
    }
    let j = i;
    while (j < rows.length && !near[j]) j++;
    out.push({ kind: 'gap', text: '', hidden: j - i });
    i = j;
  }
  return out;
}
