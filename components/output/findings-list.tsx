import type { Finding } from '@/lib/generate/validate';

/** Validator findings with line numbers, errors first in each line. */
export function FindingsList({ findings, clean = 'No findings: the file follows the llms.txt format.' }: { findings: Finding[]; clean?: string }) {
  if (findings.length === 0) return <p className="muted findings__clean" data-testid="findings">{clean}</p>;
  return (
    <ul className="findings" data-testid="findings">
      {findings.map((f, i) => (
        <li key={i} className={`findings__item findings__item--${f.severity}`}>
          <span className="findings__line">Line {f.line}</span>
          <span className={`findings__sev findings__sev--${f.severity}`}>{f.severity}</span>
          <span>{f.message}</span>
        </li>
      ))}
    </ul>
  );
}
