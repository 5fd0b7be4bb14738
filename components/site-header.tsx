import type { ReactNode } from 'react';
import type { SiteInfo } from '@/lib/url/site';
import { isPinnedView } from './use-panel-target';

/**
 * Sticky header: which site, its state in words, and the one action that fits now.
 * The site badge is a letter, not the site's favicon: fetching favicons would need
 * another permission or a request the user did not ask for.
 */
export function SiteHeader({ info, pageUrl, status, action }: { info: SiteInfo; pageUrl: string; status: string; action?: ReactNode }) {
  const openInTab = () => {
    void browser.tabs.create({ url: browser.runtime.getURL(`/sidepanel.html?url=${encodeURIComponent(pageUrl)}`) });
  };
  return (
    <header className="site-header">
      <div className="site-header__row">
        <span className="site-badge" aria-hidden="true">{info.host.replace(/^www\./, '').charAt(0).toUpperCase()}</span>
        <div className="site-header__text">
          <h1 className="site-header__host" data-testid="site-host" title={info.origin}>{info.host}</h1>
          <p className="site-header__status" data-testid="site-status">{status}</p>
        </div>
        {!isPinnedView() && (
          <button type="button" className="icon-button" onClick={openInTab} title="Open in a tab" aria-label="Open in a tab">
            <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true"><path d="M9 2h5v5M14 2L7 9M12 9v4a1 1 0 0 1-1 1H3a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1h4" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" /></svg>
          </button>
        )}
      </div>
      <div className="site-header__meta">
        <span className="site-header__origin" data-testid="site-origin">{info.origin}</span>
        {action}
      </div>
    </header>
  );
}
