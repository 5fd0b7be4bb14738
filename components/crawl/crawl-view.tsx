import { useState } from 'react';
import type { CrawlSettings } from '@/lib/crawl/settings';
import { sendMessage } from '@/lib/messaging';
import { CrawlProgress } from './crawl-progress';
import { PageList } from './page-list';
import { SettingsForm } from './settings-form';
import { useLatestCrawl } from './use-crawl';
import { useStallWatch } from './use-stall-watch';
import { VariantsCard } from './variants-card';

/** The Generate tab: settings → live progress with pause/resume/cancel → the crawled pages. */
export function CrawlView({ origin, pageUrl, onOutput }: { origin: string; pageUrl: string; onOutput: () => void }) {
  const job = useLatestCrawl(origin);
  const [fresh, setFresh] = useState(false);
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useStallWatch(job ?? undefined);

  const start = async (settings: CrawlSettings) => {
    setStarting(true);
    setError(null);
    try {
      const answer = await sendMessage('startCrawl', { url: pageUrl, settings });
      if ('error' in answer) setError(answer.error);
      else setFresh(false);
    } catch (e) {
      setError(`Scout’s background worker did not answer (${String(e)}).`);
    } finally {
      setStarting(false);
    }
  };

  if (job === undefined) return null;
  const showForm = !job || fresh;
  return (
    <div className="crawl-view">
      {error && <p className="error" role="alert">{error}</p>}
      {showForm ? <SettingsForm startUrl={pageUrl} busy={starting} onStart={(s) => void start(s)} /> : <CrawlProgress job={job} onNew={() => setFresh(true)} onOutput={onOutput} />}
      {job && !fresh && <VariantsCard job={job} />}
      {job && !fresh && <PageList job={job} />}
    </div>
  );
}
