import { useState } from 'react';
import type { CrawlSettings } from '@/lib/crawl/settings';
import { CrawlProgress } from './crawl-progress';
import { PageList } from './page-list';
import { SettingsForm } from './settings-form';
import { useLatestCrawl } from './use-crawl';
import { usePlan } from './use-plan';
import { useStallWatch } from './use-stall-watch';
import { VariantsCard } from './variants-card';
import { CommandError, errorOf, useCommand } from '../use-command';

/** The Generate tab: settings → live progress with pause/resume/cancel → the crawled pages. */
export function CrawlView({ origin, pageUrl, onOutput }: { origin: string; pageUrl: string; onOutput: () => void }) {
  const job = useLatestCrawl(origin);
  const [fresh, setFresh] = useState(false);
  const { run, error, busy } = useCommand();
  useStallWatch(job ?? undefined);

  const start = async (settings: CrawlSettings) => {
    const answer = await run('startCrawl', { url: pageUrl, settings });
    if (answer && !errorOf(answer)) setFresh(false);
  };

  if (job === undefined) return null;
  const showForm = !job || fresh;
  return (
    <div className="crawl-view">
      <CommandError error={error} />
      {showForm ? <PlannedSettings origin={origin} pageUrl={pageUrl} busy={busy} onStart={(s) => void start(s)} initial={job ? carriedOver(job.settings) : undefined} /> : <CrawlProgress job={job} onNew={() => setFresh(true)} onOutput={onOutput} />}
      {job && !fresh && <VariantsCard job={job} />}
      {job && !fresh && <PageList job={job} />}
    </div>
  );
}

/** The settings form with what the crawl would cover above it; the plan is asked for only while the form shows. */
function PlannedSettings({ origin, pageUrl, ...form }: { origin: string; pageUrl: string; busy: boolean; onStart: (s: CrawlSettings) => void; initial?: Partial<CrawlSettings> }) {
  const plan = usePlan(origin, pageUrl);
  return <SettingsForm startUrl={pageUrl} plan={plan} {...form} />;
}

/** What the user chose for this site before and a new crawl keeps: a lifted Crawl-delay cap, how many crawls to keep. */
function carriedOver(settings: CrawlSettings): Partial<CrawlSettings> | undefined {
  const kept: Partial<CrawlSettings> = {
    ...(settings.liftCrawlDelayCap ? { liftCrawlDelayCap: true } : {}),
    ...(settings.keepCrawls !== undefined ? { keepCrawls: settings.keepCrawls } : {}),
  };
  return Object.keys(kept).length > 0 ? kept : undefined;
}
