import type { CrawlCounters, CrawlJob } from '@/lib/store/db';
import { plural } from '../format';
import { DEFAULT_CRAWL_DELAY_CAP_S } from '@/lib/crawl/host-gate';
import { CommandError, useCommand } from '../use-command';
import { scopeLine } from './scope-words';
import { DeleteOldCrawls, DeleteSiteData } from '../storage/storage-card';

/** Live progress of a crawl with its controls. Numbers come from the job row the worker keeps current. */
export function CrawlProgress({ job, onNew, onOutput }: { job: CrawlJob; onNew: () => void; onOutput: () => void }) {
  const command = useCommand();
  const { error } = command;
  const control = jobControl(command, job.id, 'crawl');
  const c = job.counters;
  const get = (k: keyof CrawlCounters) => c[k] ?? 0;
  const notDocs = get('notDocs');
  const processed = get('done') + get('failed') + get('skipped');
  const total = Math.max(get('discovered'), 1);
  const active = job.state === 'running' || job.state === 'paused';
  const maxPages = job.settings.maxPages;
  const pct = job.state === 'done' ? 100 : Math.min(100, Math.round((Math.max(processed / total, get('stored') / Math.max(maxPages, 1))) * 100));

  return (
    <section className="card crawl-progress" data-testid="crawl-progress" data-state={job.state}>
      <div className="crawl-progress__top">
        <h2>{titleFor(job)}</h2>
        <span className={`pill pill--${job.state}`} data-testid="crawl-state">{job.state}</span>
      </div>
      <p className="crawl-progress__scope" data-testid="crawl-scope">{scopeLine(job)}</p>
      <div className="bar" role="progressbar" aria-valuenow={pct} aria-valuemin={0} aria-valuemax={100} aria-label="Crawl progress">
        <div className="bar__fill" style={{ transform: `scaleX(${pct / 100})` }} />
      </div>
      <dl className="counters" data-testid="crawl-counters">
        <div><dt>Stored</dt><dd data-testid="count-stored">{get('stored').toLocaleString('en')}<span className="muted"> / {maxPages.toLocaleString('en')}</span></dd></div>
        <div><dt>Queued</dt><dd data-testid="count-pending">{(get('pending') + get('inflight')).toLocaleString('en')}</dd></div>
        <div><dt>Failed</dt><dd data-testid="count-failed">{get('failed').toLocaleString('en')}</dd></div>
        <div><dt>Skipped</dt><dd data-testid="count-skipped">{get('skipped').toLocaleString('en')}</dd></div>
        <div><dt>Depth</dt><dd>{get('depth')}</dd></div>
        <div><dt>Pages/s</dt><dd data-testid="rate">{job.state === 'running' ? get('rate').toFixed(1) : '–'}</dd></div>
      </dl>
      <p className="crawl-progress__message" data-testid="crawl-message">{job.message}</p>
      {c.crawlDelayUsed !== undefined && c.crawlDelayAsked !== undefined && <PaceNote job={job} asked={c.crawlDelayAsked} used={c.crawlDelayUsed} />}
      {get('rendered') > 0 && <p className="muted" data-testid="rendered-note">{plural(get('rendered'), 'page')} needed JavaScript and {get('rendered') === 1 ? 'was' : 'were'} rendered in a background tab.</p>}
      {notDocs > 0 && <p className="muted" data-testid="not-docs-note">{plural(notDocs, 'page')} {notDocs === 1 ? 'was' : 'were'} not documentation: kept out of llms.txt.</p>}
      {get('duplicates') > 0 && <p className="muted">{plural(get('duplicates'), 'page')} had the same content as another and {get('duplicates') === 1 ? 'is' : 'are'} kept once.</p>}
      {job.state === 'paused' && job.storageFull && (
        <div className="storage-full" data-testid="storage-full">
          <p>Make room for the rest of this crawl, then resume:</p>
          <DeleteOldCrawls origin={job.origin} />
          <DeleteSiteData origin={job.origin} />
          <p className="muted">Deleting this site’s data deletes this crawl too. Other sites’ data is in their own History tab, under Storage.</p>
        </div>
      )}
      <CommandError error={error} />
      <div className="crawl-progress__actions">
        {job.state === 'running' && (
          <button type="button" className="button" onClick={() => void control('pauseCrawl')} data-testid="pause">Pause</button>
        )}
        {job.state === 'paused' && (
          <button type="button" className="button button--primary" onClick={() => void control('resumeCrawl')} data-testid="resume">Resume</button>
        )}
        {active && (
          <button type="button" className="button button--danger" onClick={() => void control('cancelCrawl')} data-testid="cancel">Cancel</button>
        )}
        {job.state === 'done' && <button type="button" className="button button--primary" onClick={onOutput} data-testid="see-output">See llms.txt</button>}
        {!active && <button type="button" className="button" onClick={onNew} data-testid="new-crawl">New crawl</button>}
      </div>
    </section>
  );
}

type JobControl = 'pauseCrawl' | 'resumeCrawl' | 'cancelCrawl';

/**
 * What the worker's refusal of Pause, Resume or Cancel means, in words. It refuses only a job that
 * is not going any more (it ended, or another window stopped it, a moment before the press) or
 * that is gone: the panel shows the job's new state as soon as its row changes.
 */
export function refusedControl(command: JobControl, noun: 'crawl' | 'refresh'): string {
  switch (command) {
    case 'pauseCrawl': return `Nothing to pause: this ${noun} is no longer running. It ended or was stopped from another window.`;
    case 'resumeCrawl': return `This ${noun} can no longer be resumed: it has already ended. Start a new one.`;
    case 'cancelCrawl': return `Nothing to cancel: this ${noun} has already ended.`;
  }
}

/**
 * Pause, Resume and Cancel for one job: the worker answers `ok: false` when it had nothing to
 * stop or resume, and the card says so (a failure to reach the worker is useCommand's to say).
 * The buttons stay as they are, to press again.
 */
export function jobControl(
  { run, setError }: Pick<ReturnType<typeof useCommand>, 'run' | 'setError'>,
  jobId: string,
  noun: 'crawl' | 'refresh',
): (command: JobControl) => Promise<void> {
  return async (command) => {
    const answer = await run(command, { jobId });
    if (answer && 'ok' in answer && !answer.ok) setError(refusedControl(command, noun));
  };
}

/**
 * A site that asks for a Crawl-delay sets how long the crawl takes: say what it asks, what Scout
 * waits (the cap, when the ask is longer) and about how long the rest will take at that pace.
 */
function PaceNote({ job, asked, used }: { job: CrawlJob; asked: number; used: number }) {
  const c = job.counters;
  const left = Math.min((c.pending ?? 0) + (c.inflight ?? 0), Math.max(0, job.settings.maxPages - (c.stored ?? 0)));
  const capped = used < asked;
  return (
    <p className="muted" data-testid="pace-note">
      The site’s robots.txt asks for {duration(asked)} between requests
      {capped ? `; Scout waits ${duration(used)} (its cap; lift it in the crawl settings of a new crawl)` : `, and Scout waits that long${job.settings.liftCrawlDelayCap && asked > DEFAULT_CRAWL_DELAY_CAP_S ? ' (its cap is lifted for this site)' : ''}`}.
      {job.state !== 'done' && left > 0 && <> About <span data-testid="time-left">{duration(left * used)}</span> left for {plural(left, 'queued page')}.</>}
    </p>
  );
}

/** Seconds in the largest units that matter: "45 s", "12 min", "4 h 10 min", "3 days 2 h". */
export function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  if (s < 86_400) {
    const m = Math.round((s % 3600) / 60);
    return `${Math.floor(s / 3600)} h${m ? ` ${m} min` : ''}`;
  }
  const h = Math.round((s % 86_400) / 3600);
  const d = Math.floor(s / 86_400);
  return `${d} ${d === 1 ? 'day' : 'days'}${h ? ` ${h} h` : ''}`;
}

function titleFor(job: CrawlJob): string {
  switch (job.state) {
    case 'running': return 'Crawling';
    case 'paused': return 'Paused';
    case 'done': return 'Crawl finished';
    case 'cancelled': return 'Crawl cancelled';
    case 'failed': return 'Crawl failed';
    default: return 'Crawl';
  }
}
