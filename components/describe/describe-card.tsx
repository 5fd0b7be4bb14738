import { useLiveQuery } from 'dexie-react-hooks';
import { useRef, useState } from 'react';
import { db } from '@/lib/store/db';
import { builtinProvider } from '@/lib/describe/builtin';
import { DESCRIBE_PORT, portHold, runDescribeInPanel } from '@/lib/describe/panel-run';
import { pagesToDescribe } from '@/lib/describe/run-describe';
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
  // The on-device job this panel runs, to cancel it here (the worker does not run it).
  const here = useRef<AbortController | null>(null);
  if (!settings || job === undefined) return null;
  // A panel's job whose lease lapsed has no runner (its panel was closed): the next start ends it.
  const running = job?.state === 'running' && !(job.kind === 'describe' && job.leaseUntil !== undefined && job.leaseUntil < Date.now());
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
  // The on-device model is only exposed to pages, so this panel runs it (one page at a time), held
  // on the worker's registry: Cancel in another panel reaches it, and the worker's end hook makes
  // the llms.txt again. A failure ends the job with its reason, which the card shows as its message.
  const runBuiltin = async () => {
    const controller = new AbortController();
    here.current = controller;
    const provider = builtinProvider();
    try {
      const hold = portHold(() => browser.runtime.connect({ name: DESCRIBE_PORT }));
      const result = await runDescribeInPanel(db, origin, provider, { maxPages: settings.maxPages, signal: controller.signal, hold });
      if ('error' in result) return setError(result.error);
    } catch (error) {
      setError(`Could not write descriptions: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      provider.destroy();
      if (here.current === controller) here.current = null;
    }
  };
  const cancel = async (jobId: string) => {
    if (here.current) return here.current.abort();
    const answer = await run('cancelDescribe', { jobId });
    // Refused only while the panel running it is not back on a worker that was just restarted.
    if (answer && 'ok' in answer && !answer.ok) setError('Scout could not reach the panel writing these descriptions. Try again in a moment.');
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
          {running && job && <button type="button" className="button button--danger" onClick={() => void cancel(job.id)} data-testid="describe-cancel">Cancel</button>}
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
