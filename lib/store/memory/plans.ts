/** The memory bodies of plans.ts: plans by start page (few per site), discovery rows by auto id. */
import type { DiscoveredFileRecord, PlanRecord } from '../db';
import { compareStrings, copy, type MemoryStore } from './store';

export async function planFor(store: MemoryStore, startUrl: string): Promise<PlanRecord | undefined> {
  const plan = store.plans.get(startUrl);
  return plan && copy(plan);
}

export async function savePlan(store: MemoryStore, plan: PlanRecord): Promise<void> {
  store.plans.set(plan.startUrl, copy(plan));
}

/** The site's plans in start-page order, as the `origin` index gives them. */
export async function plansOfSite(store: MemoryStore, origin: string): Promise<PlanRecord[]> {
  return [...store.plans.values()]
    .filter((p) => p.origin === origin)
    .sort((a, b) => compareStrings(a.startUrl, b.startUrl))
    .map(copy);
}

export async function failPlan(store: MemoryStore, startUrl: string, origin: string, message: string): Promise<void> {
  const plan = store.plans.get(startUrl);
  if (plan?.state === 'failed') return;
  store.plans.set(startUrl, copy({ ...plan, startUrl, origin, state: 'failed', message, createdAt: plan?.createdAt ?? Date.now() }));
}

export async function failRunningPlans(store: MemoryStore, message: string): Promise<number> {
  const running = [...store.plans.values()].filter((p) => p.state === 'running');
  for (const plan of running) store.plans.set(plan.startUrl, { ...copy(plan), state: 'failed', message });
  return running.length;
}

/** The run's rows in id order, as the `jobId` index gives them. */
export async function findingsOfRun(store: MemoryStore, discoveryJobId: string): Promise<DiscoveredFileRecord[]> {
  return [...store.discovered.values()]
    .filter((d) => d.jobId === discoveryJobId)
    .sort((a, b) => (a.id ?? 0) - (b.id ?? 0))
    .map(copy);
}
