import { useState } from 'react';
import type { SiteInfo } from '@/lib/url/site';

/** Asks, on the user's click, for access to this site and its subdomains, and says why. */
export function HostAccessCard({ info, onRequest }: { info: SiteInfo; onRequest: () => Promise<boolean> }) {
  const [declined, setDeclined] = useState(false);
  const ask = async () => setDeclined(!(await onRequest()));
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
      {declined && <p className="error" role="alert">Access was not granted. Scout can’t read this site until you allow it.</p>}
    </section>
  );
}
