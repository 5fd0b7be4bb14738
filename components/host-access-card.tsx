import { useState } from 'react';
import type { SiteInfo } from '@/lib/url/site';
import type { GrantResult } from './use-host-access';

/** Asks, on the user's click, for access to this site and its subdomains, and says why (and why not, when it fails). */
export function HostAccessCard({ info, onRequest }: { info: SiteInfo; onRequest: () => Promise<GrantResult> }) {
  const [result, setResult] = useState<GrantResult | null>(null);
  const ask = async () => setResult(await onRequest());
  return (
    <section className="card card--accent" data-testid="host-access">
      <h2>Allow Scout on {info.site}</h2>
      <p>
        Scout reads llms.txt, robots.txt, sitemaps and pages from <strong>{info.site}</strong> and its subdomains with your
        browser, so docs you are logged in to work too. Nothing is sent anywhere else.
      </p>
      <button type="button" className="button button--primary" onClick={() => void ask()}>
        Allow access to {info.site}
      </button>
      {result && !result.granted && (
        <p className="error" role="alert" data-testid="host-access-error">
          {result.error
            ? `Your browser did not let Scout ask for access to ${info.site} (it said: “${result.error}”). Scout can’t read this site until access is allowed.`
            : 'Access was not granted. Scout can’t read this site until you allow it.'}
        </p>
      )}
    </section>
  );
}
