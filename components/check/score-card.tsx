import { scoreOf } from '@/lib/check/score';
import type { CheckReport } from '@/lib/check/types';

/** Good from 90, fair from 60 (AFDocs' A and D bands), poor below: the colour of a score. */
const band = (score: number) => (score >= 90 ? 'good' : score >= 60 ? 'fair' : 'poor');

/**
 * The score at the top of the report: overall with its grade, then each category's, weighed as
 * AFDocs weighs its checks (lib/check/score.ts). A category none of whose scored checks applied
 * shows a dash, not a zero.
 */
export function ScoreCard({ report }: { report: CheckReport }) {
  const score = scoreOf(report);
  return (
    <div className="check-score" data-testid="check-score" data-score={score.overall} data-grade={score.grade}>
      <div className={`check-score__overall check-score--${band(score.overall)}`}>
        <span className="check-score__number" data-testid="check-score-number">{score.overall}</span>
        <span className="check-score__of">/100</span>
        <span className="check-score__grade" data-testid="check-score-grade">{score.grade}</span>
      </div>
      {score.cap && <p className="muted check__meta" data-testid="check-score-cap">Capped at {score.cap.cap}: {score.cap.reason}</p>}
      <ul className="check-categories" aria-label="Scores by category">
        {score.categories.map((c) => (
          <li key={c.id} className="check-category" data-testid="check-category" data-category={c.id} data-score={c.score ?? ''}>
            <span className="check-category__name">{c.name}</span>
            <span className="check-category__bar" aria-hidden="true">
              {c.score !== null && <span className={`check-category__fill check-score--${band(c.score)}`} style={{ width: `${c.score}%` }} />}
            </span>
            <span className="check-category__score" title={c.score === null ? 'Nothing scored here yet' : undefined}>{c.score ?? '–'}</span>
          </li>
        ))}
      </ul>
      <p className="muted check__meta">Weighed as AFDocs scores agent-friendly docs; Scout’s own checks (describedby, alternate, descriptions, robots) are listed below but not scored.</p>
    </div>
  );
}
