import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import { db } from '@/lib/store/db';
import { formatBytes } from '@/lib/format';
import { siteRowCount, siteStorage, type TableUse } from '@/lib/store/retention';
import { CommandError, errorOf, useCommand } from '../use-command';

/** Plain names for the tables, as the user knows what is in them. */
const WHAT: Record<string, string> = {
  pages: 'Pages (Markdown)',
  frontier: 'Crawl queues',
  linkBlocks: 'Links waiting in queues',
  pageVersions: 'Refresh checks',
  artifacts: 'llms.txt versions',
  jobs: 'Jobs',
  discovered: 'Discovery findings',
  descriptions: 'AI descriptions',
  plans: 'Crawl plans',
  renderTabs: 'Open render tabs',
  sites: 'Site settings',
};

/** The browser's own figures for everything Scout stores (all sites), when it gives them. */
function useEstimate(): StorageEstimate | null {
  const [estimate, setEstimate] = useState<StorageEstimate | null>(null);
  useEffect(() => {
    let live = true;
    void navigator.storage?.estimate?.().then((e) => live && setEstimate(e), () => undefined);
    return () => {
      live = false;
    };
  }, []);
  return estimate;
}

/**
 * What this site takes on disk, per kind of data, with the browser's estimate for all of Scout, and
 * "Delete this site's data". The figures read every row of the site, so they are worked out only
 * while the card is open.
 */
export function StorageCard({ origin }: { origin: string }) {
  const [open, setOpen] = useState(false);
  // Each deletion mounts the figures anew, so they are measured again.
  const [round, setRound] = useState(0);
  return (
    <details className="card storage" data-testid="storage-card" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary><h2>Storage</h2></summary>
      {open && <StorageFigures key={round} origin={origin} />}
      {open && <DeleteSiteData origin={origin} onDone={() => setRound((n) => n + 1)} />}
    </details>
  );
}

function StorageFigures({ origin }: { origin: string }) {
  // Measured when the card opens and again after a deletion: not live, since a live query would
  // read every row of the site again on each page a crawl writes.
  const [use, setUse] = useState<Record<string, TableUse> | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    siteStorage(db, origin).then(
      (measured) => live && setUse(measured),
      (error: unknown) => live && setFailed(`Scout could not measure this site’s data: ${error instanceof Error ? error.message : String(error)}`),
    );
    return () => {
      live = false;
    };
  }, [origin]);
  const estimate = useEstimate();
  if (failed) return <p className="error" role="alert">{failed}</p>;
  if (!use) return <p className="muted">Measuring…</p>;
  const rows = Object.entries(use).filter(([, t]) => t.rows > 0) as Array<[string, TableUse]>;
  const total = rows.reduce((sum, [, t]) => sum + t.bytes, 0);
  return (
    <>
      <p data-testid="storage-site">
        This site: <strong>{formatBytes(total)}</strong> in {rows.reduce((sum, [, t]) => sum + t.rows, 0).toLocaleString('en')} rows.
        {estimate?.usage !== undefined && (
          <span className="muted" data-testid="storage-estimate"> The browser counts {formatBytes(estimate.usage)} for all of Scout{estimate.quota ? `, of ${formatBytes(estimate.quota)} it allows` : ''}.</span>
        )}
      </p>
      {rows.length > 0 && (
        <table className="jobs" data-testid="storage-tables">
          <thead><tr><th>Data</th><th>Rows</th><th>Size</th></tr></thead>
          <tbody>
            {rows.map(([table, t]) => (
              <tr key={table} data-table={table}><td>{WHAT[table] ?? table}</td><td>{t.rows.toLocaleString('en')}</td><td>{formatBytes(t.bytes)}</td></tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="muted">Scout keeps each site’s last crawls (set how many in the crawl settings, under More options) and deletes older ones when a crawl ends.</p>
    </>
  );
}

/**
 * "Delete this site's data": a confirm step, then the rows left counting down while the worker
 * deletes, then what was deleted in words. Also used by a crawl paused on a full store.
 */
export function DeleteSiteData({ origin, onDone }: { origin: string; onDone?: () => void }) {
  const { run, error } = useCommand();
  const [step, setStep] = useState<'idle' | 'confirm' | 'deleting' | 'done'>('idle');
  const [result, setResult] = useState<string | null>(null);
  const left = useLiveQuery(() => (step === 'deleting' ? siteRowCount(db, origin) : Promise.resolve(null)), [origin, step]);

  const remove = async () => {
    setStep('deleting');
    const answer = await run('deleteSiteData', { origin });
    if (!answer || errorOf(answer)) {
      setStep('idle');
      return;
    }
    if ('rows' in answer) setResult(`Deleted ${answer.rows.toLocaleString('en')} rows: the crawls, pages, llms.txt versions, discovery and settings of ${new URL(origin).host}. Nothing of this site is left; open it again to start over.`);
    setStep('done');
    onDone?.();
  };

  return (
    <div className="storage__delete" data-testid="delete-site-data" data-step={step}>
      <CommandError error={error} />
      {step === 'idle' && <button type="button" className="button button--danger" onClick={() => setStep('confirm')} data-testid="delete-site-data-start">Delete this site’s data</button>}
      {step === 'confirm' && (
        <p role="alert">
          Delete every crawl, page, llms.txt version, refresh and setting Scout keeps for {new URL(origin).host}? This cannot be undone.{' '}
          <button type="button" className="button button--danger" onClick={() => void remove()} data-testid="delete-site-data-confirm">Delete</button>{' '}
          <button type="button" className="button" onClick={() => setStep('idle')} data-testid="delete-site-data-keep">Keep it</button>
        </p>
      )}
      {step === 'deleting' && <p data-testid="delete-site-data-progress">Deleting…{left !== null && left !== undefined ? ` ${left.toLocaleString('en')} rows left.` : ''}</p>}
      {step === 'done' && result && <p data-testid="delete-site-data-result">{result}</p>}
    </div>
  );
}

/** "Delete old crawls of this site": keeps only the crawls in use (a paused one, the one the outputs come from). */
export function DeleteOldCrawls({ origin, onDone }: { origin: string; onDone?: () => void }) {
  const { run, error, busy } = useCommand();
  const [result, setResult] = useState<string | null>(null);
  const remove = async () => {
    const answer = await run('deleteOldCrawls', { origin });
    if (!answer || errorOf(answer) || !('crawls' in answer)) return;
    setResult(answer.crawls === 0 ? 'There were no old crawls to delete: only the crawls in use are left.' : `Deleted ${answer.crawls === 1 ? 'one old crawl' : `${answer.crawls} old crawls`} (${answer.rows.toLocaleString('en')} rows).`);
    onDone?.();
  };
  return (
    <div className="storage__delete" data-testid="delete-old-crawls">
      <CommandError error={error} />
      <button type="button" className="button" disabled={busy} onClick={() => void remove()} data-testid="delete-old-crawls-start">{busy ? 'Deleting old crawls…' : 'Delete old crawls of this site'}</button>
      {result && <p data-testid="delete-old-crawls-result">{result}</p>}
    </div>
  );
}
