import type { JobRecord, UnstartedRefreshJob } from '@/lib/store/db';
import { addJob, jobById } from '@/lib/store/jobs';
import { runningScheduledRefreshes } from '@/lib/store/refresh-jobs';
import { allSites, siteByOrigin, updateSite } from '@/lib/store/sites';
import { descriptionsBy } from '@/lib/describe/settings-item';
import { outputsAfterRefresh } from '@/lib/refresh/after-refresh';
import { afterRun, dueSites, nextWake, withMonitor } from '@/lib/refresh/schedule';
import type { StartRefresh } from './crawl';
import { wiring, type JobWiring } from './jobs';
import { onCommand } from './on-command';

const ALARM = 'scheduled-refresh';
/**
 * While a scheduled refresh runs, the next due site waits for it to end (its hook starts the next):
 * the alarm then only backs that up, this far ahead, not at the due time already past, which
 * fired it again every second for as long as the refresh ran.
 */
const BUSY_RECHECK_MS = 5 * 60_000;
const NOTIFICATION_PREFIX = 'refresh:';

/**
 * Scheduled refreshes: one alarm, set for the earliest due site. Due sites are refreshed one at a
 * time (the next starts when one ends), and each scheduled refresh ends with a notification, if
 * the user allowed notifications. A refresh's end, whoever started it, is an on-ended hook on the
 * worker's registry: it makes the outputs again when pages changed, tells the user, and starts
 * the next due site. `startRefresh`: the crawl wiring's (setUpCrawls).
 */
export function setUpSchedule(given: Partial<JobWiring> & { startRefresh: StartRefresh }): void {
  const { db, browser, jobs } = wiring(given);
  const { startRefresh } = given;

  const arm = async (busy = false) => {
    const when = nextWake(await allSites(db));
    if (when === null) await browser.alarms.clear(ALARM);
    else await browser.alarms.create(ALARM, { when: Math.max(Date.now() + (busy ? BUSY_RECHECK_MS : 1000), when) });
  };

  const runDue = async () => {
    const busy = await runningScheduledRefreshes(db);
    if (busy) return arm(true);
    for (const site of dueSites(await allSites(db))) {
      if (!site.monitor) continue;
      await updateSite(db, site.origin, { monitor: afterRun(site.monitor) });
      const started = await startRefresh(site.origin, true);
      if ('jobId' in started) break;
      // It could not start (no access any more, nothing crawled): the history says why, and the next site goes.
      const failed: UnstartedRefreshJob = { id: crypto.randomUUID(), origin: site.origin, kind: 'refresh', state: 'failed', scheduled: true, createdAt: Date.now(), endedAt: Date.now(), counters: {}, message: started.error };
      await addJob(db, failed);
    }
    await arm();
  };

  const notify = async (job: JobRecord, version: number | null) => {
    if (!browser.notifications || !(await browser.permissions.contains({ permissions: ['notifications'] }))) return;
    const host = new URL(job.origin).host;
    await browser.notifications.create(`${NOTIFICATION_PREFIX}${job.origin}`, {
      type: 'basic',
      iconUrl: browser.runtime.getURL('/icon/128.png'),
      title: `${host}: ${job.state === 'done' ? 'refresh finished' : `refresh ${job.state}`}`,
      message: `${job.message ?? ''}${version ? ` · new llms.txt version ${version}` : ''}`,
    });
  };

  // Paused, a refresh has not ended: Resume carries it on. Ended any way (done, failed, cancelled,
  // or stopped on an error its run threw), it hands on to the next due site.
  jobs.onEnded(['refresh'], async ({ id }) => {
    const job = await jobById(db, id);
    if (job?.kind !== 'refresh' || job.state === 'paused' || job.state === 'running') return;
    const created = await outputsAfterRefresh(db, job.id, new Date(), await descriptionsBy());
    if (job.scheduled) await notify((await jobById(db, job.id)) ?? job, created?.version ?? null);
    await runDue();
  });

  browser.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === ALARM) void runDue();
  });
  // Chrome may drop alarms when the browser restarts or the extension updates: a worker that
  // starts without the alarm sets it again (one still set is left alone, so its time stands).
  void browser.alarms
    .get(ALARM)
    .then((alarm) => (alarm ? undefined : arm()))
    .catch((error: unknown) => console.error('Scout could not set the schedule alarm', error));
  // The panel's roomy tab view is the side panel on that site, and opening it needs no user gesture.
  browser.notifications?.onClicked.addListener((id) => {
    if (!id.startsWith(NOTIFICATION_PREFIX)) return;
    const origin = id.slice(NOTIFICATION_PREFIX.length);
    void browser.tabs.create({ url: browser.runtime.getURL(`/sidepanel.html?url=${encodeURIComponent(`${origin}/`)}`) });
    void browser.notifications.clear(id);
  });
  onCommand('setMonitor', async (data) => {
    const site = await siteByOrigin(db, data.origin);
    if (!site) return {};
    const monitor = withMonitor(site.monitor, data);
    await updateSite(db, data.origin, { monitor });
    await arm();
    return { nextAt: monitor.nextAt };
  });
}
