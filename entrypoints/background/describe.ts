import { jobById, setJobFields } from '@/lib/store/jobs';
import { endpointProvider } from '@/lib/describe/endpoint';
import { createDescribeJob, runDescribeJob } from '@/lib/describe/run-describe';
import { describeSite } from '@/lib/describe/site-summary';
import { endpointProblem } from '@/lib/describe/settings';
import { readDescribeSettings } from '@/lib/describe/settings-item';
import { onCommand } from './on-command';
import { regenerate } from './generate';
import { holdEndpoint } from './network-guard';
import { browserFetch } from '@/lib/fetch/browser-fetch';
import { acceptPanelRun, DESCRIBE_PORT, failStaleDescribeJobs } from '@/lib/describe/panel-run';
import { wiring, type JobWiring } from './jobs';

/**
 * AI descriptions with the user's endpoint, in the worker. (Chrome's on-device Summarizer is only
 * exposed to pages, so the panel runs that one itself, and holds it on this worker's registry
 * through a port: Cancel reaches it from any panel, and the panel's closing ends it.)
 */
export function setUpDescribe(given: Partial<JobWiring> = {}): void {
  const { db, browser, jobs } = wiring(given);

  // A describe job "running" in a worker that was stopped has no runner any more; the cache keeps
  // what it finished, so running it again only asks for the rest.
  // A job the side panel runs (the on-device model) holds a lease and is still running there.
  void failStaleDescribeJobs(db, 'Stopped when the browser closed Scout’s worker. Run it again: descriptions already written are kept.');
  browser.runtime.onConnect.addListener((port) => {
    if (port.name === DESCRIBE_PORT) acceptPanelRun(db, jobs, port);
  });
  // Whoever ran it, a describe job that ended done or cancelled has descriptions the llms.txt lacks.
  jobs.onEnded(['describe'], async ({ id }) => {
    const job = await jobById(db, id);
    if (job?.state === 'done' || job?.state === 'cancelled') await regenerate(job.origin, db);
  });

  onCommand('startDescribe', async (data) => {
    const settings = await readDescribeSettings();
    if (settings.provider !== 'endpoint') return { error: 'Choose your endpoint as the description provider first.' };
    const problem = endpointProblem(settings.endpoint);
    if (problem) return { error: problem };
    if (settings.consentedTo !== settings.endpoint.url) return { error: 'consent', consent: true as const };
    const endpointOrigin = new URL(settings.endpoint.url).origin;
    if (!(await browser.permissions.contains({ origins: [`${endpointOrigin}/*`] }))) return { error: `Scout may not contact ${endpointOrigin} yet: save the endpoint again and allow access.` };
    const job = await createDescribeJob(db, data.origin);
    if ('error' in job) return job;
    const provider = endpointProvider(settings.endpoint, browserFetch);
    // A local endpoint (Ollama on localhost) is on the user's own machine: the network guard lets
    // exactly that origin through while this job runs. A browser that refuses that rule ends the job
    // with the reason: left running, it would block the site's next describe until a restart.
    let release: () => Promise<void>;
    try {
      release = await holdEndpoint(settings.endpoint.url);
    } catch (error) {
      await setJobFields(db, job.id, { state: 'failed', endedAt: Date.now(), message: `Scout could not let requests through to ${endpointOrigin}: ${error instanceof Error ? error.message : String(error)}` });
      return { jobId: job.id };
    }
    const describe = async (signal: AbortSignal) => {
      // The one-line site summary first (one call, from the current llms.txt's titles and notes), then the pages.
      const site = await describeSite(db, data.origin, settings.endpoint, { fetch: browserFetch, providerId: provider.id, signal });
      const summaryNote = `site summary ${'summary' in site ? 'written' : `kept (${site.reason})`}`;
      const state = await runDescribeJob(db, job.id, provider, { concurrency: settings.concurrency, maxPages: settings.maxPages, signal });
      const done = await jobById(db, job.id);
      if (state === 'done') await setJobFields(db, job.id, { message: `${done?.message ?? ''} · ${summaryNote}` });
    };
    // Cancel aborts the registry's signal; the job leaves the registry once its end hook made the llms.txt again.
    jobs.start({
      id: job.id,
      kind: 'describe',
      run: (signal) =>
        describe(signal)
          // Released before the end hooks run, so the rule lives no longer than the job's calls.
          .finally(() => release().catch(() => undefined))
          .catch((error: unknown) => setJobFields(db, job.id, { state: 'failed', endedAt: Date.now(), message: `Stopped on an error: ${String(error)}` })),
    });
    return { jobId: job.id };
  });

  onCommand('cancelDescribe', (data) => ({ ok: jobs.cancel(data.jobId, 'describe') }));
}
