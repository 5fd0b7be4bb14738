import { useEffect, useState } from 'react';
import { db, type CrawlJob } from '@/lib/store/db';
import { describeVariant, foundVariants, type FoundVariant } from '@/lib/url/variants';
import { plural } from '../format';
import { rowsInState } from '@/lib/store/frontier';
import { CommandError, useCommand } from '../use-command';

/**
 * The other versions and languages of the docs a crawl found and left alone (a crawl stays in its
 * start page's), with how many of their pages it saw, each one click from a crawl of its own.
 * Read once the crawl stops: the skipped URLs of a large crawl are many and change on every batch.
 */
export function VariantsCard({ job }: { job: CrawlJob }) {
  const [found, setFound] = useState<FoundVariant[]>([]);
  const { run, error } = useCommand();
  const settled = job.state !== 'running' && job.state !== 'queued';
  useEffect(() => {
    if (!settled) return;
    let live = true;
    const startUrl = job.startUrl;
    void rowsInState(db, job.id, 'skipped').then((rows) => {
      if (live) setFound(foundVariants(startUrl, rows.filter((r) => r.reason?.startsWith('Another ')).map((r) => r.url)));
    });
    return () => {
      live = false;
    };
  }, [job.id, job.startUrl, settled]);
  if (found.length === 0) return null;
  const crawl = (variant: FoundVariant) => run('startCrawl', { url: variant.startUrl, settings: job.settings });
  return (
    <section className="card" data-testid="variants">
      <h2>Other versions and languages</h2>
      <p className="muted">This crawl stayed in {describeVariant(job.startUrl) || 'its start page’s version and language'}. The site also has:</p>
      <ul className="plain-list variants">
        {found.map((v) => (
          <li key={`${v.kind}:${v.value}`} className="variants__row" data-testid="variant" data-value={v.value}>
            <span>{v.kind} <strong>{v.value}</strong> <span className="muted">· {plural(v.pages, 'page')} seen</span></span>
            <button type="button" className="button button--small" onClick={() => void crawl(v)} aria-label={`Crawl ${v.kind} ${v.value}`}>Crawl</button>
          </li>
        ))}
      </ul>
      <CommandError error={error} />
    </section>
  );
}
