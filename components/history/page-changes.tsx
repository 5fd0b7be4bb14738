import type { PageVersionRecord } from '@/lib/store/db';
import { shortUrl } from '../format';
import { usePageChanges } from './use-history';

const ORDER: PageVersionRecord['change'][] = ['changed', 'removed', 'restored', 'minor', 'failed'];
const LABEL: Record<PageVersionRecord['change'], string> = { changed: 'Changed', removed: 'Removed', restored: 'Back', minor: 'Minor', failed: 'Failed', unchanged: 'Unchanged' };

/** The pages the latest refresh found different, with why (unchanged ones are only counted). */
export function PageChanges({ jobId, origin }: { jobId: string; origin: string }) {
  const changes = usePageChanges(jobId);
  if (!changes || changes.length === 0) return null;
  const sorted = [...changes].sort((a, b) => ORDER.indexOf(a.change) - ORDER.indexOf(b.change) || a.url.localeCompare(b.url));
  return (
    <section className="card" data-testid="page-changes">
      <h2>What the last refresh found</h2>
      <ul className="changes">
        {sorted.map((v) => (
          <li key={v.id} className="changes__item" data-change={v.change}>
            <span className={`pill pill--${v.change}`}>{LABEL[v.change]}</span>
            <span className="truncate" title={v.url}>{shortUrl(v.url, origin)}</span>
            <span className="muted changes__reason">{v.reason}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
