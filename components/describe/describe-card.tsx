import { useLiveQuery } from 'dexie-react-hooks';
import { useState } from 'react';
import { db } from '@/lib/db';
import { builtinProvider } from '@/lib/describe/builtin';
import { createDescribeJob, pagesToDescribe, runDescribeJob } from '@/lib/describe/run-describe';
import { useLatestJob } from '../crawl/use-crawl';
import { shortUrl } from '../format';
import { ProviderForm } from './provider-form';
import { useDescribeSettings } from './use-describe-settings';
import { CommandError, useCommand } from '../use-command';

/** Optional AI descriptions: the provider, consent before page text leaves the browser, progress and fallbacks. */
export function DescribeCard({ origin }: { origin: string }) {
  const [settings, save] = useDescribeSettings();
  const [consent, setConsent] = useState(false);
  const { run, error, setError } = useCommand();
  const job = useLatestJob(origin, 'describe');
  const pages = useLiveQuery(() => pagesToDescribe(db, origin), [origin]);
  if (!settings || job === undefined) return null;
  const running = job?.state === 'running';
  const endpointHost = settings.endpoint.url ? new URL(settings.endpoint.url, 'https://x').host : '';

  const start = async () => {
    setError(null);
    if (settings.provider === 'builtin') return runBuiltin();
    const answer = await run('startDescribe', { origin });
    // Not an error: the user has not yet agreed to send page text to this endpoint.
    if (answer && 'consent' in answer && answer.consent) {
      setError(null);
      setConsent(true);
    }
  };
  const agree = async () => {
    await save({ ...settings, consentedTo: settings.endpoint.url });
    setConsent(false);
    await start();
  };
  // The on-device model is only exposed to pages, so this panel runs it (one page at a time).
  const runBuiltin = async () => {
    const created = await createDescribeJob(db, origin);
    if ('error' in created) return setError(created.error);
    const provider = builtinProvider();
    try {
      await runDescribeJob(db, created.id, provider, { concurrency: 1, maxPages: settings.maxPages });
      await run('generate', { origin });
    } finally {
      provider.destroy();
    }
  };

  const c = job?.counters ?? {};
  return (
    <section className="card" data-testid="describe-card" data-state={job?.state ?? 'none'}>
      <h2>Descriptions</h2>
      <p className="muted">Each entry’s note comes from the page itself. You can have a language model write them instead; pages it can’t describe keep their own.</p>
      <details className="settings__more" open={settings.provider !== 'none'}>
        <summary>Provider{settings.provider === 'endpoint' && endpointHost ? `: ${endpointHost}` : settings.provider === 'builtin' ? ': on-device' : ': Scout'}</summary>
        <ProviderForm settings={settings} onSave={save} />
      </details>
      {settings.provider !== 'none' && (
        <div className="row">
          <button type="button" className="button button--primary" disabled={running || !pages} onClick={() => void start()} data-testid="describe-start">Write descriptions</button>
          {running && job && <button type="button" className="button button--danger" onClick={() => void run('cancelDescribe', { jobId: job.id })} data-testid="describe-cancel">Cancel</button>}
        </div>
      )}
      {consent && (
        <div className="note" role="alertdialog" aria-label="Send page text?" data-testid="describe-consent">
          <p>
            Scout will send the text of up to <strong>{Math.min(settings.maxPages, pages ?? 0)} pages</strong> of {new URL(origin).host} (about 1,500 tokens each) to <strong>{endpointHost}</strong>, model <strong>{settings.endpoint.model}</strong>
            {settings.endpoint.apiKey ? ', with your API key' : ''}. Pages described before are not sent again. Nothing is sent until you agree.
          </p>
          <div className="row">
            <button type="button" className="button button--primary" onClick={() => void agree()} data-testid="describe-agree">Send and write</button>
            <button type="button" className="button" onClick={() => setConsent(false)}>Not now</button>
          </div>
        </div>
      )}
      <CommandError error={error} />
      {job && (
        <>
          <p className="crawl-progress__message" data-testid="describe-message">{job.message}</p>
          {running && <progress max={c.total ?? 1} value={(c.described ?? 0) + (c.cached ?? 0) + (c.fallback ?? 0)} />}
          {job.fallbacks && job.fallbacks.length > 0 && (
            <details className="checked" data-testid="describe-fallbacks">
              <summary>{job.fallbacks.length} kept their own description</summary>
              <ul>{job.fallbacks.map((f) => <li key={f.url}><span className="truncate">{shortUrl(f.url, origin)}</span> <span className="muted">{f.reason}</span></li>)}</ul>
            </details>
          )}
        </>
      )}
    </section>
  );
}
