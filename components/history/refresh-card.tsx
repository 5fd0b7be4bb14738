import type { RefreshJob } from '@/lib/store/db';
import { jobControl } from '../crawl/crawl-progress';
import { useStallWatch } from '../crawl/use-stall-watch';
import { CommandError, useCommand } from '../use-command';

const COUNTS = [
  ['checked', 'Checked'],
  ['unchanged', 'Unchanged'],
  ['changed', 'Changed'],
  ['removed', 'Removed'],
  ['minor', 'Minor'],
  ['failed', 'Failed'],
] as const;

/** Refresh now, and the latest refresh's progress or result. */
export function RefreshCard({ origin, refresh, crawled }: { origin: string; refresh: RefreshJob | undefined; crawled: boolean }) {
  const command = useCommand();
  const { run, error, busy: starting } = command;
  const control = jobControl(command, refresh?.id ?? '', 'refresh');
  useStallWatch(refresh);
  const running = refresh?.state === 'running' || refresh?.state === 'paused';
  const c = refresh?.counters ?? {};
  const pct = refresh?.state === 'done' ? 100 : Math.round(((c.checked ?? 0) / Math.max(1, c.total ?? 1)) * 100);

  const start = () => run('startRefresh', { origin });

  return (
    <section className="card" data-testid="refresh-card" data-state={refresh?.state ?? 'none'}>
      <div className="crawl-progress__top">
        <h2>Refresh</h2>
        {refresh && <span className={`pill pill--${refresh.state}`}>{refresh.state}</span>}
      </div>
      <p className="muted">Re-checks every crawled page with conditional requests (unchanged pages cost almost nothing) and makes a new llms.txt only when something changed enough. New pages come in with a new crawl.</p>
      {refresh && (
        <>
          {running && (
            <div className="bar" role="progressbar" aria-valuenow={pct} aria-valuemin={0} aria-valuemax={100} aria-label="Refresh progress">
              <div className="bar__fill" style={{ transform: `scaleX(${pct / 100})` }} />
            </div>
          )}
          <dl className="counters" data-testid="refresh-counters">
            {COUNTS.map(([key, label]) => (
              <div key={key}><dt>{label}</dt><dd data-testid={`refresh-${key}`}>{(c[key] ?? 0).toLocaleString('en')}</dd></div>
            ))}
          </dl>
          <p className="crawl-progress__message" data-testid="refresh-message">
            {refresh.message}
            {refresh.state === 'done' && (c.version ? ` · new llms.txt version ${c.version}` : ' · no new version needed')}
          </p>
        </>
      )}
      <CommandError error={error} />
      <div className="crawl-progress__actions">
        {!running && (
          <button type="button" className="button button--primary" onClick={() => void start()} disabled={starting || !crawled} data-testid="refresh-now">
            {starting ? 'Starting…' : 'Refresh now'}
          </button>
        )}
        {refresh?.state === 'running' && <button type="button" className="button" onClick={() => void control('pauseCrawl')}>Pause</button>}
        {refresh?.state === 'paused' && <button type="button" className="button button--primary" onClick={() => void control('resumeCrawl')}>Resume</button>}
        {running && refresh && <button type="button" className="button button--danger" onClick={() => void control('cancelCrawl')}>Cancel</button>}
        {!crawled && <span className="muted">Crawl the site first.</span>}
      </div>
    </section>
  );
}
