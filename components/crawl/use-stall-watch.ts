import { useEffect } from 'react';
import type { JobRecord } from '@/lib/store/db';
import { sendMessage } from '@/lib/messaging';

/** Progress is written every ~250 ms while a runner works; this much silence means no runner. */
const STALL_MS = 4000;

/**
 * The browser may stop Scout's worker mid-crawl. The job stays "running" in
 * Dexie; while the panel sees no progress it wakes the worker every few seconds,
 * which resumes the crawl from the durable queue.
 */
export function useStallWatch(job: JobRecord | undefined): void {
  const running = job?.state === 'running';
  const signature = job ? JSON.stringify(job.counters) + job.message : '';
  // biome-ignore lint/correctness/useExhaustiveDependencies: `signature` is the trigger: any movement restarts the stall timer.
  useEffect(() => {
    if (!running) return;
    // Again and again while nothing moves: a wake sent just before the browser stopped the worker
    // woke nothing that lasts (measured in the render E2E: the crawl then waited for the 1-minute watchdog).
    const timer = setInterval(() => void sendMessage('wakeCrawls', undefined).catch(() => undefined), STALL_MS);
    return () => clearInterval(timer);
  }, [running, signature]);
}
