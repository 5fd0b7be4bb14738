import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useEffect, useState } from 'react';
import { db } from '@/lib/store/db';
import { siteByOrigin } from '@/lib/store/sites';
import type { SiteInfo } from '@/lib/url/site';
import { CheckView } from './check/check-view';
import { CrawlView } from './crawl/crawl-view';
import { useLatestCrawl } from './crawl/use-crawl';
import { DiscoveredView } from './discovery/discovered-view';
import { HistoryView } from './history/history-view';
import { OutputView } from './output/output-view';
import { useDiscovery } from './discovery/use-discovery';
import { HostAccessCard } from './host-access-card';
import { SiteHeader } from './site-header';
import { TabBar } from './tab-bar';
import { useHostAccess } from './use-host-access';
import { CommandError, errorOf, useCommand } from './use-command';

/** Everything the panel shows for one site. State comes from Dexie; commands go to the worker. */
export function SitePanel({ pageUrl, info }: { pageUrl: string; info: SiteInfo }) {
  const { access, request } = useHostAccess(info.hostPatterns);
  const site = useLiveQuery(() => siteByOrigin(db, info.origin), [info.origin]);
  const discovery = useDiscovery(info.origin);
  const crawl = useLatestCrawl(info.origin);
  const [tab, setTab] = useState<'discovered' | 'generate' | 'output' | 'check' | 'history' | null>(null);
  const { run, error: commandError, setError: setCommandError } = useCommand();
  // A crawl in progress is what the user came back for; otherwise start with what the site publishes.
  // Decided once, when the crawl state first loads, so a crawl finishing doesn't switch tabs under the user.
  useEffect(() => {
    if (crawl !== undefined) setTab((t) => t ?? (crawl && (crawl.state === 'running' || crawl.state === 'paused') ? 'generate' : 'discovered'));
  }, [crawl]);
  const view = tab ?? 'discovered';

  useEffect(() => void run('openSite', { url: pageUrl }), [pageUrl, run]);

  const discover = useCallback(async (visit: boolean) => {
    const answer = await run('startDiscovery', { url: pageUrl, visit });
    if (errorOf(answer) === 'no-access') setCommandError('Scout has no access to this site yet. Allow it above.');
  }, [pageUrl, run, setCommandError]);
  const rerun = useCallback(() => discover(false), [discover]);

  // Discovery is kept per site: opening the panel, or a new page of the site while it is open, is
  // a visit — the worker discovers a site only the first time and otherwise reads what the page
  // adds (its folders not checked yet, its own links). Re-run discovers the whole site again.
  useEffect(() => {
    if (access === 'granted') void discover(true);
  }, [access, discover]);

  const busy = Boolean(discovery.running);
  const status =
    access === 'missing' ? 'Needs your permission to read this site'
    : access === 'checking' ? 'Checking access…'
    // The header speaks about what the user is looking at: the crawl on the Generate tab, else discovery.
    : view === 'generate' && crawl ? crawl.message ?? 'Crawl'
    : discovery.running?.message ?? discovery.shown?.message ?? 'Looking for llms.txt files…';

  return (
    <div className="panel">
      <SiteHeader
        info={info}
        pageUrl={pageUrl}
        status={status}
        action={access === 'granted' && view === 'discovered' && (
          <button type="button" className="button button--small" onClick={() => void rerun()} disabled={busy} data-testid="rerun">
            {busy ? 'Checking…' : 'Re-run'}
          </button>
        )}
      />
      <main className="panel__body">
        <CommandError error={commandError} />
        {access === 'missing' && <HostAccessCard info={info} onRequest={request} />}
        {access === 'granted' && (
          <>
            <TabBar
              tabs={[
                { id: 'discovered', label: 'Discovered' },
                { id: 'generate', label: 'Generate', badge: crawl?.state === 'running' ? `${crawl.counters.stored ?? 0}` : undefined },
                { id: 'output', label: 'Output' },
                { id: 'check', label: 'Check' },
                { id: 'history', label: 'History' },
              ]}
              current={view}
              onSelect={setTab}
            />
            {view === 'discovered' && <DiscoveredView origin={info.origin} state={discovery} onGenerate={() => setTab('generate')} />}
            {view === 'generate' && <CrawlView origin={info.origin} pageUrl={pageUrl} onOutput={() => setTab('output')} />}
            {view === 'output' && <OutputView origin={info.origin} host={info.host} onCrawl={() => setTab('generate')} onKit={() => setTab('check')} />}
            {view === 'check' && <CheckView origin={info.origin} host={info.host} pageUrl={pageUrl} />}
            {view === 'history' && <HistoryView origin={info.origin} />}
          </>
        )}
        <section className="card card--quiet" data-testid="site-facts">
          <dl className="facts">
            <dt>Page</dt>
            <dd className="truncate" title={pageUrl}>{new URL(pageUrl).pathname}</dd>
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
