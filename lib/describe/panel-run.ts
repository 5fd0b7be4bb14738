import type { JobRegistry } from '../jobs/registry';
import type { JobState } from '../store/db';
import type { Store } from '../store/store';
import { dropLease, failIfRunning, failStaleDescribeJobs as failStale, renewLease } from '../store/describe-jobs';
import { getJob } from '../store/queries';
import { createDescribeJob, PANEL_CLOSED, runDescribeJob } from './run-describe';
import type { DescriptionProvider } from './types';

/** How long a panel's hold on its describe job lasts without renewal, and how often it renews it. */
export const LEASE_MS = 30_000;
const RENEW_MS = 10_000;

/** The name of the port a panel keeps open to the worker while it runs a describe job. */
export const DESCRIBE_PORT = 'describe-run';

/** What the panel says on that port (this job runs here), and what the worker answers (stop it). */
type PanelSays = { holds: string };
type WorkerSays = { cancel: true };

/** The part of a `runtime.connect` port both ends use (a test passes its own). */
export interface RunPort {
  readonly name: string;
  postMessage(message: unknown): void;
  disconnect(): void;
  readonly onMessage: { addListener(listener: (message: unknown) => void): void };
  readonly onDisconnect: { addListener(listener: () => void): void };
}

/**
 * How a panel running a job tells the worker: `hold(jobId, cancel)` puts the job on the worker's
 * registry (and `cancel` runs when the worker asks it to stop); what it answers lets the job go.
 */
export type PanelHold = (jobId: string, cancel: () => void) => () => void;

/**
 * Runs a describe job in the page that calls it: Chrome's on-device model is only exposed to pages,
 * so the side panel runs that one itself. While it runs, the page holds a lease on the job (renewed
 * every 10 s) so a worker that starts meanwhile does not take it for one a stopped worker left, and
 * `hold` puts it on the worker's registry, so Cancel from anywhere reaches it and a panel closed
 * mid-run ends it at once. `signal` cancels it; a throw ends it failed with the reason instead of
 * leaving it running.
 */
export async function runDescribeInPanel(db: Store, origin: string, provider: DescriptionProvider, options: { maxPages: number; signal?: AbortSignal; hold?: PanelHold }): Promise<{ jobId: string; state: JobState; reason?: string } | { error: string }> {
  const created = await createDescribeJob(db, origin, { leaseUntil: Date.now() + LEASE_MS });
  if ('error' in created) return created;
  const id = created.id;
  // Cancelled here (the caller's signal) or by the worker (Cancel pressed in another panel).
  const stop = new AbortController();
  const fromCaller = () => stop.abort(options.signal?.reason);
  if (options.signal?.aborted) fromCaller();
  else options.signal?.addEventListener('abort', fromCaller, { once: true });
  const renew = setInterval(() => void renewLease(db, id, Date.now() + LEASE_MS).catch(() => undefined), RENEW_MS);
  let release: () => void = () => undefined;
  try {
    release = options.hold?.(id, () => stop.abort(new DOMException('Cancelled', 'AbortError'))) ?? release;
    const state = await runDescribeJob(db, id, provider, { concurrency: 1, maxPages: options.maxPages, signal: stop.signal });
    return { jobId: id, state };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    await failIfRunning(db, id, `Stopped on an error: ${reason}`).catch(() => undefined);
    return { jobId: id, state: 'failed', reason };
  } finally {
    clearInterval(renew);
    options.signal?.removeEventListener('abort', fromCaller);
    await dropLease(db, id).catch(() => undefined);
    // Last: the worker's end hooks read the job's final state.
    release();
  }
}

/**
 * The panel's hold through a port to the worker (`connect` opens one: `runtime.connect`). When the
 * browser stops the worker, the port closes with it and the panel opens another, which wakes a
 * new worker and puts the job on its registry; the lease in the store covers the moment between.
 */
export function portHold(connect: () => RunPort, reconnectMs = 500): PanelHold {
  return (jobId, cancel) => {
    let port: RunPort | null = null;
    let released = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const open = () => {
      if (released) return;
      try {
        port = connect();
      } catch (error) {
        // No worker to reach (the extension was reloaded): the run goes on, cancelled only here.
        console.error('Scout could not tell its worker about the descriptions being written', error);
        return;
      }
      port.onMessage.addListener((message) => {
        if ((message as Partial<WorkerSays> | null)?.cancel === true) cancel();
      });
      port.onDisconnect.addListener(() => {
        port = null;
        if (!released) timer = setTimeout(open, reconnectMs);
      });
      port.postMessage({ holds: jobId } satisfies PanelSays);
    };
    open();
    return () => {
      released = true;
      clearTimeout(timer);
      port?.disconnect();
      port = null;
    };
  };
}

/**
 * The worker's end of a panel's port: the panel's running describe job goes on the registry as
 * every job does (Cancel asks the panel to stop it; the keep-alive holds while it runs), and
 * leaves it when the port closes: the panel let it go once its final state was written, or the
 * panel was closed mid-run, which ends the job failed at once instead of when its lease lapses.
 */
export function acceptPanelRun(db: Store, jobs: JobRegistry, port: RunPort): void {
  let held = false;
  let closed: () => void = () => undefined;
  const gone = new Promise<void>((resolve) => {
    closed = resolve;
  });
  port.onDisconnect.addListener(() => closed());
  port.onMessage.addListener((message) => {
    const id = (message as Partial<PanelSays> | null)?.holds;
    if (held || typeof id !== 'string') return;
    held = true;
    void getJob(db, id, 'describe')
      .then((job) => {
        // A describe job the panel made. It may have ended already (a run of cached descriptions
        // takes moments): it still goes on, so its end hooks run when the panel lets it go. The
        // worker's own describe job is on the registry under this id already, and is left as it is.
        if (!job) return;
        jobs.start({
          id,
          kind: 'describe',
          run: () => gone.then(() => failIfRunning(db, id, PANEL_CLOSED)),
          cancel: () => {
            try {
              port.postMessage({ cancel: true } satisfies WorkerSays);
            } catch {
              // The port closed meanwhile: the job ends with it.
            }
          },
        });
      })
      .catch((error: unknown) => console.error('Scout could not read the describe job a panel runs', error));
  });
}

/**
 * For a worker starting up: describe jobs left "running" with no runner — the worker's own (a
 * stopped worker's), or a panel's whose lease lapsed — end failed. A panel's job under a live
 * lease is still running in that panel and is left alone.
 */
export function failStaleDescribeJobs(db: Store, message: string, now = Date.now()): Promise<number> {
  return failStale(db, message, PANEL_CLOSED, now);
}
