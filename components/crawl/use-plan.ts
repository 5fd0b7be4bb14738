import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useEffect, useRef } from 'react';
import { db, type PlanRecord } from '@/lib/store/db';
import { jobsOfKind } from '@/lib/store/jobs';
import { plansOfSite } from '@/lib/store/plans';
import { outsideBoundary } from '@/lib/url/boundary';
import { useCommand } from '../use-command';

/** How long the panel stays on a start page before asking for its plan. */
const SETTLE_MS = 700;

export interface PlanState {
  /** The plan shown for this start page; undefined while loading, null when there is none yet. */
  plan: PlanRecord | null | undefined;
  /** Set when the plan shown is another page's whose documentation holds this one: that page. */
  from?: string;
  /** Makes the plan again (the failed one's "Try again"). */
  again: () => void;
  /** The planCrawl command's own failure (no answer, no access), in words. */
  error: string | null;
}

/**
 * What a crawl from `startUrl` would cover (lib/crawl/plan.ts), asked for once: when there is no
 * plan for the page made from the site's current discovery. The plan reads discovery's llms.txt
 * files and sitemaps, so it waits while a first discovery is still running. Each start page and
 * discovery is asked about at most once per mount: re-renders and live-query updates send nothing.
 *
 * A reader moving through the docs with this tab open asks nothing more: a page inside the
 * documentation of another page's plan (same discovery) is shown that plan. The crawl from it
 * still works out its own as it starts, so what it keeps to is its own page's.
 */
export function usePlan(origin: string, startUrl: string): PlanState {
  const plans = useLiveQuery(() => plansOfSite(db, origin), [origin]);
  const discovery = useLiveQuery(async () => {
    const jobs = await jobsOfKind(db, origin, 'discovery');
    return { done: jobs.find((j) => j.state === 'done')?.id ?? null, running: jobs.some((j) => j.state === 'running') };
  }, [origin]);
  const current = discovery?.done ?? null;
  const own = plans === undefined ? undefined : (plans.find((p) => p.startUrl === startUrl) ?? null);
  const shared = own || !current ? undefined : plans?.find((p) => p.state === 'done' && p.discoveryJobId === current && p.boundary && outsideBoundary(p.boundary, new URL(startUrl)) === null);
  const plan = own ?? shared ?? (own === undefined ? undefined : null);
  const { run, error } = useCommand();
  const asked = useRef(new Set<string>());

  const waiting = plan === undefined || discovery === undefined || (discovery.running && current === null);
  const stale = !shared && (own === null || (own !== undefined && own.state !== 'running' && current !== null && own.discoveryJobId !== current));

  useEffect(() => {
    if (waiting || !stale) return;
    const key = `${startUrl}\n${current ?? ''}`;
    if (asked.current.has(key)) return;
    // A reader clicking through the site with this tab open asks nothing of pages they only pass.
    const timer = setTimeout(() => {
      asked.current.add(key);
      void run('planCrawl', { url: startUrl });
    }, SETTLE_MS);
    return () => clearTimeout(timer);
  }, [waiting, stale, startUrl, current, run]);

  const again = useCallback(() => {
    void run('planCrawl', { url: startUrl, again: true });
  }, [run, startUrl]);

  return { plan, ...(shared ? { from: shared.startUrl } : {}), again, error: error === 'no-access' ? 'Scout has no access to this site yet. Allow it above.' : error };
}
