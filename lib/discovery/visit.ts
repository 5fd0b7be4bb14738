import type { DiscoveredFileRecord, DiscoveryJob } from '../store/db';
import type { Store } from '../store/store';
import { addVisitFindings, findingsOfRun } from '../store/discovered';
import { latestJob } from '../store/queries';
import { discover } from './discover';
import { countersOf, summaryMessage } from './run-discovery';

/** The site's discovery: its newest run, whatever its state (undefined when it never ran). */
export async function siteDiscovery(db: Store, origin: string): Promise<DiscoveryJob | undefined> {
  return latestJob(db, origin, 'discovery');
}

export interface DiscoveryVisitInput {
  /** The site's finished discovery, which the visit adds to. */
  job: DiscoveryJob;
  pageUrl: string;
  fetch: typeof fetch;
  now?: () => number;
}

/**
 * Another page of a site already discovered: discovery is kept per site, so only what this page
 * can add is read — the page itself (its `<link>`s and Link header), the llms locations in its
 * folders that the site's discovery did not look at, and files it declares that are not known
 * yet. robots.txt, sitemaps and /.well-known/ are not asked again. New rows join the site's
 * discovery (its time stays the time of the full run). Answers how many locations were added.
 */
export async function runDiscoveryVisit(db: Store, input: DiscoveryVisitInput): Promise<number> {
  const now = input.now ?? Date.now;
  const { job } = input;
  const rows = await findingsOfRun(db, job.id);
  const known = new Set(rows.map((r) => r.url));
  const summary = await discover({ pageUrl: input.pageUrl, fetch: input.fetch, visit: { known } });
  // A result is final only once discover returns (a file reached two ways gains a source).
  const added: DiscoveredFileRecord[] = summary.results.filter((r) => !known.has(r.url)).map((r) => ({ ...r, origin: job.origin, jobId: job.id, fetchedAt: now() }));
  if (added.length === 0) return 0;
  // Not written when the site was discovered again meanwhile (Re-run): its rows are that run's now.
  await addVisitFindings(db, job.id, added, (current) => {
    const whole = { ...summary, results: [...rows, ...added], overCap: current.counters.overCap ?? 0, ms: current.counters.ms ?? summary.ms };
    return { counters: { ...current.counters, ...countersOf(whole) }, message: summaryMessage(whole) };
  });
  return added.length;
}
