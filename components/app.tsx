import { useMemo } from 'react';
import { siteInfo } from '@/lib/url/site';
import { usePanelTarget } from './use-panel-target';
import { NoSite } from './no-site';
import { SitePanel } from './site-panel';

/** Top of the side panel: decides between "no site here" and the site view. */
export function App() {
  const target = usePanelTarget();
  const info = useMemo(() => (target?.kind === 'site' ? siteInfo(target.url) : null), [target]);

  if (!target) return <div className="loading" aria-busy="true" />;
  if (target.kind !== 'site') return <NoSite target={target} />;
  if (!info) return null;
  // Keyed by origin so switching tabs to another site starts from a clean state.
  return <SitePanel key={info.origin} pageUrl={target.url} info={info} />;
}
