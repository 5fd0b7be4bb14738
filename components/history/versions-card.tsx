import { useEffect, useState } from 'react';
import type { ArtifactRecord } from '@/lib/store/db';
import { plural } from '../format';
import { DiffView } from './diff-view';
import { useVersions } from './use-history';

/** The kept versions of llms.txt / llms-full.txt, and a diff between any two. */
export function VersionsCard({ origin }: { origin: string }) {
  const [kind, setKind] = useState<ArtifactRecord['kind']>('llms');
  const versions = useVersions(origin, kind);
  const [pair, setPair] = useState<{ from: number; to: number } | null>(null);
  // By default: the newest version against the one before it.
  useEffect(() => {
    if (versions && versions.length > 1 && (!pair || !versions.some((v) => v.version === pair.to))) setPair({ from: versions[1]?.version ?? 0, to: versions[0]?.version ?? 0 });
  }, [versions, pair]);
  if (!versions) return null;
  const from = versions.find((v) => v.version === pair?.from);
  const to = versions.find((v) => v.version === pair?.to);
  const pick = (which: 'from' | 'to', value: number) => setPair((p) => ({ from: p?.from ?? value, to: p?.to ?? value, [which]: value }));

  return (
    <section className="card" data-testid="versions">
      <div className="crawl-progress__top">
        <h2>Versions</h2>
        <div className="seg" role="tablist" aria-label="File">
          {(['llms', 'llms-full'] as const).map((k) => (
            <button key={k} type="button" role="tab" aria-selected={kind === k} className="seg__item" onClick={() => setKind(k)}>{k === 'llms' ? 'llms.txt' : 'llms-full.txt'}</button>
          ))}
        </div>
      </div>
      {versions.length === 0 && <p className="muted">No version yet: generate the files first.</p>}
      <ol className="versions" data-testid="version-list">
        {versions.map((v) => (
          <li key={v.version} className="versions__item" data-version={v.version}>
            <strong>v{v.version}</strong>
            <span className="muted"> {new Date(v.createdAt).toLocaleString()} · {plural(v.tokens, 'token')} · {v.refreshJobId ? 'after a refresh' : 'crawl or review'}</span>
          </li>
        ))}
      </ol>
      {versions.length > 1 && pair && (
        <>
          <div className="row versions__pick">
            <label>Compare <select value={pair.from} onChange={(e) => pick('from', Number(e.target.value))} data-testid="diff-from">{versions.map((v) => <option key={v.version} value={v.version}>v{v.version}</option>)}</select></label>
            <label>with <select value={pair.to} onChange={(e) => pick('to', Number(e.target.value))} data-testid="diff-to">{versions.map((v) => <option key={v.version} value={v.version}>v{v.version}</option>)}</select></label>
          </div>
          {from && to && <DiffView older={from.text} newer={to.text} />}
        </>
      )}
    </section>
  );
}
