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
}

/**
 * A line diff of two versions of a file (jsdiff's Myers diff), with long runs of
 * unchanged lines folded to `context` lines around each change — an llms-full.txt
 * is thousands of lines and the reader wants the changes.
 */
export function lineDiff(older: string, newer: string, context = 2): LineDiff {
  const rows: DiffRow[] = [];
  let oldLine = 1;
  let newLine = 1;
  let added = 0;
  let removed = 0;
  for (const part of diffLines(older, newer)) {
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
