import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import { db } from '@/lib/db';
import { sendMessage } from '@/lib/messaging';
import type { SiteInfo } from '@/lib/url/site';
import { HostAccessCard } from './host-access-card';
import { SiteHeader } from './site-header';
import { useHostAccess } from './use-host-access';

/** Everything the panel shows for one site. State comes from Dexie; commands go to the worker. */
export function SitePanel({ pageUrl, info }: { pageUrl: string; info: SiteInfo }) {
  const { access, request } = useHostAccess(info.hostPatterns);
  const site = useLiveQuery(() => db.sites.get(info.origin), [info.origin]);
  const [commandError, setCommandError] = useState<string | null>(null);

  useEffect(() => {
    sendMessage('openSite', { url: pageUrl }).catch((error: unknown) =>
      setCommandError(`Scout’s background worker did not answer (${String(error)}). Try closing and reopening the panel.`),
    );
  }, [pageUrl]);

  const status = access === 'missing' ? 'Needs your permission to read this site' : access === 'checking' ? 'Checking access…' : 'Ready';

  return (
    <div className="panel">
      <SiteHeader info={info} pageUrl={pageUrl} status={status} />
      <main className="panel__body">
        {commandError && <p className="error" role="alert">{commandError}</p>}
        {access === 'missing' && <HostAccessCard info={info} onRequest={request} />}
        <section className="card" data-testid="site-facts">
          <h2>Site</h2>
          <dl className="facts">
            <dt>Page</dt>
            <dd className="truncate" title={pageUrl}>{new URL(pageUrl).pathname}</dd>
            <dt>Site</dt>
            <dd>{info.site}</dd>
            <dt>Access</dt>
            <dd data-testid="host-access-state">{access === 'granted' ? `Allowed on ${info.hostPatterns.length > 1 ? `${info.site} and subdomains` : info.host}` : access === 'missing' ? 'Not yet allowed' : '…'}</dd>
            <dt>Inspected</dt>
            <dd data-testid="site-visits">
              {site ? `${site.openCount} ${site.openCount === 1 ? 'time' : 'times'}, first on ${new Date(site.firstOpenedAt).toLocaleDateString()}` : '…'}
            </dd>
          </dl>
        </section>
      </main>
    </div>
  );
}
