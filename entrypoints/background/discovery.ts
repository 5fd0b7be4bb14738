import { failDiscoveryJob, runDiscoveryJob } from '@/lib/discovery/run-discovery';
import { runDiscoveryVisit, siteDiscovery } from '@/lib/discovery/visit';
import { failInterrupted } from '@/lib/store/queries';
import { putDiscoveryJob } from '@/lib/store/discovered';
import { browserFetch } from '@/lib/fetch/browser-fetch';
import { siteInfo } from '@/lib/url/site';
import { holdStartHost } from './network-guard';
import { onCommand } from './on-command';
import { wiring, type JobWiring } from './jobs';
import { siteJobs } from './site-jobs';

/**
 * Discovery runs in the worker; the panel only starts it and watches Dexie. It is kept per site:
 * the panel opening on a site discovered before, or following the reader to another of its pages,
 * sends a visit, which reads only what that page adds (lib/discovery/visit.ts); Re-run discovers
 * the site again.
 */
// Discovery starts asked for and not yet answered, per site: the job row is written only once the
// command has checked access and the site's last run, and until then the site looks undiscovered.
const starting = new Map<string, Promise<unknown>>();

/**
 * Waits until the worker has answered every startDiscovery for the site asked before now. The
 * panel asks for discovery as it opens, then (moments later, or at once under load) for a plan or
 * a crawl: made before discovery's job row exists, those read no llms.txt and no sitemap, so a
 * crawl missed the pages only they list, and the plan was made again once discovery ended.
 */
export function discoveryStarted(origin: string): Promise<unknown> {
  return starting.get(origin) ?? Promise.resolve();
}

export function setUpDiscovery(given: Partial<JobWiring> = {}): void {
  const { db, browser, jobs } = wiring(given);
  void failInterrupted(db, 'discovery');
  const start = siteJobs('discovery', { browser, jobs });

  const startOrVisit = async (data: { url: string; visit?: boolean }) => {
    const info = siteInfo(data.url);
    const site = data.visit ? await siteDiscovery(db, info.origin) : undefined;
    // A site never discovered, or whose last run failed, is discovered whole; a run going is joined.
    if (site?.state !== 'done') {
      return start(data.url, {
        // The row is written before the command answers, so a plan asked for next waits for the run.
        create: (jobId) => putDiscoveryJob(db, { id: jobId, origin: info.origin, kind: 'discovery', state: 'running', createdAt: Date.now(), startedAt: Date.now(), counters: {}, message: 'Starting…' }),
        run: (jobId) => runDiscoveryJob(db, { jobId, pageUrl: data.url, fetch: browserFetch }),
        fail: (jobId, error) => failDiscoveryJob(db, { jobId, pageUrl: data.url }, error),
      });
    }
    if (!(await browser.permissions.contains({ origins: info.hostPatterns }))) return { error: 'no-access' as const };
    // Visits of a site queue on the registry, one after another, so each sees the folders the one
    // before looked at; the worker is kept up until the last one ends.
    const visit = jobs.queue({
      id: crypto.randomUUID(),
      kind: 'visit',
      key: `visit:${info.origin}`,
      run: async () => {
        const release = await holdStartHost(data.url);
        try {
          await runDiscoveryVisit(db, { job: site, pageUrl: data.url, fetch: browserFetch });
        } finally {
          await release().catch((error: unknown) => console.error('Scout could not remove an allow rule', error));
        }
      },
    });
    // A visit that fails leaves the site's discovery as it was; the next page or Re-run tries again.
    void visit.catch((error: unknown) => console.error('Scout could not read the page for discovery', error));
    return { jobId: site.id };
  };

  onCommand('startDiscovery', (data) => {
    // Registered before the handler's first await: a command arriving after this one waits for it.
    const { origin } = siteInfo(data.url);
    const answer = startOrVisit(data);
    const answered = answer.catch(() => undefined);
    starting.set(origin, answered);
    void answered.finally(() => {
      if (starting.get(origin) === answered) starting.delete(origin);
    });
    return answer;
  });
}
