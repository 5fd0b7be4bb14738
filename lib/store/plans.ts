/**
 * What a crawl from a start page would cover (`plans`, one row per start page; lib/crawl/plan.ts
 * makes them): read by the crawl's seeds and page writer, watched by the Generate tab, and ended
 * by the worker when it could not finish one.
 */
import type { DiscoveredFileRecord, PlanRecord } from './db';
import * as memPlans from './memory/plans';
import { inMemory, type Store } from './store';

/** The plan for this start page, if one was made (any state). */
export function planFor(store: Store, startUrl: string): Promise<PlanRecord | undefined> {
  if (inMemory(store)) return memPlans.planFor(store, startUrl);
  const db = store;
  return db.plans.get(startUrl);
}

/** Writes the plan for its start page, replacing any earlier one. */
export async function savePlan(store: Store, plan: PlanRecord): Promise<void> {
  if (inMemory(store)) return memPlans.savePlan(store, plan);
  const db = store;
  await db.plans.put(plan);
}

/** Every plan made for a start page of the site (the panel watches these with useLiveQuery). */
export function plansOfSite(store: Store, origin: string): Promise<PlanRecord[]> {
  if (inMemory(store)) return memPlans.plansOfSite(store, origin);
  const db = store;
  return db.plans.where('origin').equals(origin).toArray();
}

/**
 * Ends the start page's plan as failed with `message`, unless it already failed (its own words are
 * kept). Read and written in one transaction, so a plan that writes its failure meanwhile wins.
 */
export async function failPlan(store: Store, startUrl: string, origin: string, message: string): Promise<void> {
  if (inMemory(store)) return memPlans.failPlan(store, startUrl, origin, message);
  const db = store;
  await db.transaction('rw', db.plans, async () => {
    const plan = await db.plans.get(startUrl);
    if (plan?.state === 'failed') return;
    await db.plans.put({ ...plan, startUrl, origin, state: 'failed', message, createdAt: plan?.createdAt ?? Date.now() });
  });
}

/** Plans left running by a worker that was stopped: they end failed with `message`. Answers how many. */
export function failRunningPlans(store: Store, message: string): Promise<number> {
  if (inMemory(store)) return memPlans.failRunningPlans(store, message);
  const db = store;
  return db.plans.filter((p) => p.state === 'running').modify({ state: 'failed', message });
}

/**
 * The rows one discovery run wrote (`discovered`): the llms.txt files and sitemaps a plan and a
 * crawl's seeds read. Kept here, beside the plans made from them; discovery's own writes are not.
 */
export function findingsOfRun(store: Store, discoveryJobId: string): Promise<DiscoveredFileRecord[]> {
  if (inMemory(store)) return memPlans.findingsOfRun(store, discoveryJobId);
  const db = store;
  return db.discovered.where('jobId').equals(discoveryJobId).toArray();
}
