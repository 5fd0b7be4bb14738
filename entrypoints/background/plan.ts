import { linkedomAdapter } from '@/lib/convert/dom';
import { planCrawl } from '@/lib/crawl/plan';
import type { ScoutDb } from '@/lib/store/db';
import { failPlan, failRunningPlans } from '@/lib/store/plans';
import { browserFetch } from '@/lib/fetch/browser-fetch';
import { siteInfo } from '@/lib/url/site';
import { discoveryStarted } from './discovery';
import { holdStartHost } from './network-guard';
import { wiring, type JobWiring } from './jobs';
import { onCommand } from './on-command';

/** A plan reads the start page and the site's sitemaps; a site slower than this is answered in words, not a spinner forever. */
const PLAN_TIMEOUT_MS = 90_000;

/**
 * What a crawl from a page would cover (lib/crawl/plan.ts), worked out in the worker before the
 * crawl starts. The command answers at once; the plan lands on the `plans` table, which the
 * Generate tab watches. Plans run on the worker's job registry, one per start page at a time
 * (its key): a second ask joins the one running, and the worker is kept up while one runs.
 */
export function setUpPlans(given: Partial<JobWiring> = {}): void {
  const { db, browser, jobs } = wiring(given);
  void failInterruptedPlans(db);

  onCommand('planCrawl', async (data) => {
    const info = siteInfo(data.url);
    if (!(await browser.permissions.contains({ origins: info.hostPatterns }))) return { error: 'no-access' as const };
    await discoveryStarted(info.origin);
    const work = async () => {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(new Error(`the site took longer than ${PLAN_TIMEOUT_MS / 1000} s to answer`)), PLAN_TIMEOUT_MS);
      try {
        // A site on the user's own network may be reached while the plan reads it, as discovery does.
        const release = await holdStartHost(data.url);
        try {
          await planCrawl(db, data.url, { fetch: browserFetch, dom: linkedomAdapter, signal: controller.signal }, { again: data.again });
        } finally {
          await release().catch((error: unknown) => console.error('Scout could not remove an allow rule', error));
        }
      } finally {
        clearTimeout(timer);
      }
    };
    jobs.start({
      id: crypto.randomUUID(),
      kind: 'plan',
      key: `plan:${data.url}`,
      run: () =>
        work()
          .catch((error: unknown) => recordFailure(db, data.url, info.origin, error))
          .catch((error: unknown) => console.error('Scout could not record a failed plan', error)),
    });
    return { ok: true as const };
  });
}

/** A plan that threw before writing its own failure still ends, with the reason, so the panel offers Try again. */
async function recordFailure(db: ScoutDb, startUrl: string, origin: string, error: unknown): Promise<void> {
  const message = `Scout could not read the site to find its documentation: ${error instanceof Error ? error.message : String(error)}.`;
  await failPlan(db, startUrl, origin, message);
}

/** Plans the worker was making when it was stopped never finish: they end failed, so the panel offers Try again. */
async function failInterruptedPlans(db: ScoutDb): Promise<void> {
  await failRunningPlans(db, 'Stopped before it finished (the browser stopped Scout’s background worker).').catch((error: unknown) => console.error('Scout could not mark interrupted plans', error));
}
