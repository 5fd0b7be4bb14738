import { useMemo } from 'react';
import { lineDiff } from '@/lib/refresh/line-diff';

/** Rows drawn at most: an llms-full.txt diff can be huge, and the first changes tell the story. */
const MAX_ROWS = 1500;

/** A line diff of two texts, unchanged runs folded. Text only: nothing here is parsed as HTML. */
export function DiffView({ older, newer }: { older: string; newer: string }) {
  const diff = useMemo(() => lineDiff(older, newer), [older, newer]);
  if (diff.tooDifferent) {
    const { olderLines, newerLines } = diff.tooDifferent;
    return <p className="muted" data-testid="diff-too-different">The two versions differ too much to compare line by line here ({olderLines.toLocaleString('en')} lines before, {newerLines.toLocaleString('en')} after): download both versions to compare them.</p>;
  }
  if (diff.added === 0 && diff.removed === 0) return <p className="muted" data-testid="diff-same">The two versions are the same.</p>;
  const rows = diff.rows.slice(0, MAX_ROWS);
  return (
    <div className="diff" data-testid="diff">
      <p className="muted" data-testid="diff-summary">
        <span className="diff__plus">+{diff.added}</span> <span className="diff__minus">−{diff.removed}</span> lines
      </p>
      <pre className="diff__body">
        {rows.map((r, i) =>
          r.kind === 'gap' ? (
            <div key={i} className="diff__gap">⋯ {r.hidden} unchanged {r.hidden === 1 ? 'line' : 'lines'}</div>
          ) : (
            <div key={i} className={`diff__row diff__row--${r.kind}`} data-kind={r.kind}>
              <span className="diff__num">{r.kind === 'added' ? '' : r.oldLine}</span>
              <span className="diff__num">{r.kind === 'removed' ? '' : r.newLine}</span>
              <span className="diff__sign">{r.kind === 'added' ? '+' : r.kind === 'removed' ? '−' : ' '}</span>
              <span className="diff__text">{r.text}</span>
            </div>
          ),
        )}
      </pre>
      {diff.rows.length > MAX_ROWS && <p className="muted">{diff.rows.length - MAX_ROWS} more rows not shown; download both versions to compare them all.</p>}
    </div>
  );
}
