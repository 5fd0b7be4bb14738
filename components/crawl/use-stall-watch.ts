import { useEffect } from 'react';
import type { JobRecord } from '@/lib/db';
import { sendMessage } from '@/lib/messaging';

/** Progress is written every ~250 ms while a runner works; this much silence means no runner. */
const STALL_MS = 4000;

/**
 * The browser may stop Scout's worker mid-crawl. The job stays "running" in
 * Dexie; when the panel sees no progress for a while it wakes the worker, which
 * resumes the crawl from the durable queue.
 */
export function useStallWatch(job: JobRecord | undefined): void {
  const running = job?.state === 'running';
  const signature = job ? JSON.stringify(job.counters) + job.message : '';
  useEffect(() => {
    if (!running) return;
    const timer = setTimeout(() => void sendMessage('wakeCrawls', undefined).catch(() => undefined), STALL_MS);
    return () => clearTimeout(timer);
  }, [running, signature]);
}
