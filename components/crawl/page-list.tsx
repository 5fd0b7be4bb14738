import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, useState } from 'react';
import type { CrawlJob, FrontierRecord } from '@/lib/store/db';
import { shortUrl } from '../format';
import { PagePreview } from './page-preview';
import { useFrontierWindow, type PageFilter } from './use-crawl';

const ROW_HEIGHT = 46;
const FILTERS: Array<{ id: PageFilter; label: string }> = [
  { id: 'all', label: 'All' },
  { id: 'done', label: 'Crawled' },
  { id: 'pending', label: 'Queued' },
  { id: 'failed', label: 'Failed' },
  { id: 'skipped', label: 'Skipped' },
];

/**
 * Every URL of the crawl with its state and, for failures and skips, the reason.
 * Virtualized: only the rows in view are read from IndexedDB and rendered.
 */
export function PageList({ job }: { job: CrawlJob }) {
  const [filter, setFilter] = useState<PageFilter>('all');
  const [selected, setSelected] = useState<FrontierRecord | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const [range, setRange] = useState({ start: 0, end: 40 });
  const { total, rows } = useFrontierWindow(job, filter, range.start, range.end - range.start + 1);
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    onChange: (v) => {
      const items = v.getVirtualItems();
      const start = items[0]?.index ?? 0;
      const end = items.at(-1)?.index ?? 40;
      setRange((r) => (r.start === start && r.end === end ? r : { start, end }));
    },
  });
  const origin = job.origin;

  return (
    <section className="card page-list" data-testid="page-list">
      <fieldset className="page-list__filters" aria-label="Show">
        {FILTERS.map((f) => (
          <button key={f.id} type="button" className={`chip${filter === f.id ? ' chip--on' : ''}`} aria-pressed={filter === f.id} onClick={() => { setFilter(f.id); setSelected(null); }}>
            {f.label}
          </button>
        ))}
        <span className="page-list__total muted" data-testid="list-total">{total.toLocaleString('en')}</span>
      </fieldset>
      <div ref={scroller} className="page-list__scroller" data-testid="page-scroller">
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index - range.start];
            return (
              <div key={item.key} className="page-row" style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }} data-testid="page-row" data-state={row?.state}>
                {row ? (
                  <button type="button" className="page-row__button" onClick={() => setSelected(row)} disabled={row.state !== 'done'} title={row.url}>
                    <span className={`dot dot--${row.state}`} role="img" aria-label={row.state} />
                    <span className="page-row__text">
                      <span className="page-row__url truncate">{shortUrl(row.url, origin)}</span>
                      <span className="page-row__meta truncate">{row.reason ?? `depth ${row.depth} · ${row.source}`}</span>
                    </span>
                  </button>
                ) : (
                  <span className="page-row__placeholder" />
                )}
              </div>
            );
          })}
        </div>
      </div>
      {selected && <PagePreview jobId={job.id} entry={selected} onClose={() => setSelected(null)} />}
    </section>
  );
}
