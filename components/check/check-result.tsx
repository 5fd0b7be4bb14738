import { evidenceOf } from '@/lib/check/report';
import type { CheckFinding, CheckResult } from '@/lib/check/types';

const STATUS: Record<CheckResult['status'], string> = { pass: 'Pass', warn: 'Warns', fail: 'Fails', na: 'n/a' };

/** One finding: severity, what is wrong, the evidence (URL, line, figure) and the fix in one sentence. */
export function FindingItem({ finding }: { finding: CheckFinding }) {
  const evidence = evidenceOf(finding);
  return (
    <li className="check-finding" data-testid="check-finding" data-check={finding.check} data-code={finding.code} data-severity={finding.severity} data-url={finding.url ?? ''}>
      <div className="check-finding__head">
        <span className={`findings__sev findings__sev--${finding.severity}`}>{finding.severity}</span>
        <span>{finding.message}</span>
      </div>
      {evidence && (
        <p className="check-finding__evidence">
          {finding.url ? <a href={finding.url} target="_blank" rel="noreferrer" className="truncate" title={finding.url}>{evidence}</a> : evidence}
          {finding.more?.length ? <span className="muted"> · and {finding.more.length} more</span> : null}
        </p>
      )}
      <p className="check-finding__fix"><strong>Fix:</strong> {finding.fix}</p>
    </li>
  );
}

/** A check's row: pass / warns / fails / n/a, what was looked at, and its findings. */
export function CheckRow({ check }: { check: CheckResult }) {
  return (
    <li className={`check-row check-row--${check.status}`} data-testid="check-row" data-check={check.id} data-status={check.status}>
      <div className="check-row__head">
        <span className={`pill check-pill check-pill--${check.status}`}>{STATUS[check.status]}</span>
        <strong className="check-row__title">{check.title}</strong>
      </div>
      <p className="muted check-row__summary">{check.summary}</p>
      {check.findings.length > 0 && (
        <ul className="check-findings">
          {check.findings.map((f, i) => <FindingItem key={`${f.code}-${i}`} finding={f} />)}
        </ul>
      )}
    </li>
  );
}
