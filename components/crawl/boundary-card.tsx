import type { PlanRecord } from '@/lib/store/db';
import { MAX_PAGES_LIMIT, type CrawlSettings } from '@/lib/crawl/settings';
import type { DocsBoundary } from '@/lib/url/boundary';
import { plural, shortUrl } from '../format';
import { CommandError } from '../use-command';
import type { PlanState } from './use-plan';
import { rootLabel, SCOPE_CHOICES } from './scope-words';

interface Props {
  state: PlanState;
  /** The page limit in the form below, and how to change it (the "Raise" button). */
  maxPages: number;
  onMaxPages: (n: number) => void;
  scope: CrawlSettings['scope'];
}

/**
 * What a crawl from this page will cover, shown before it starts: the documentation's roots, the
 * evidence for them, how many pages the site lists inside, and whether the page limit covers them.
 * Everything the site wrote (folders, titles in the evidence) is shown as text, never as HTML.
 */
export function BoundaryCard({ state, maxPages, onMaxPages, scope }: Props) {
  const { plan } = state;
  return (
    <section className="card boundary" data-testid="boundary" data-state={plan?.state ?? 'waiting'} aria-live="polite" aria-busy={!plan || plan.state === 'running'}>
      {!plan || plan.state === 'running' ? (
        <p className="progress" data-testid="boundary-finding">
          <span className="spinner" aria-hidden="true" /> Finding where the documentation is…
        </p>
      ) : plan.state === 'failed' || !plan.boundary ? (
        <Failed plan={plan} onAgain={state.again} />
      ) : (
        <Boundary plan={plan} boundary={plan.boundary} maxPages={maxPages} onMaxPages={onMaxPages} scope={scope} from={state.from} />
      )}
      <CommandError error={state.error} />
    </section>
  );
}

function Failed({ plan, onAgain }: { plan: PlanRecord; onAgain: () => void }) {
  return (
    <>
      <h2>Scout could not tell where the documentation is</h2>
      {plan.message && <p data-testid="boundary-error">{plan.message}</p>}
      <p className="muted">You can crawl anyway: Scout tries again as the crawl starts, and keeps to this host if it still cannot tell.</p>
      <button type="button" className="button button--small" onClick={onAgain} data-testid="boundary-again">
        Try again
      </button>
    </>
  );
}

function Boundary({ plan, boundary, maxPages, onMaxPages, scope, from }: { plan: PlanRecord; boundary: DocsBoundary; maxPages: number; onMaxPages: (n: number) => void; scope: CrawlSettings['scope']; from?: string }) {
  const { inside, outside } = boundary.listed;
  const chosen = SCOPE_CHOICES.find((c) => c.value === scope)?.label;
  return (
    <>
      <h2>Scout will crawl the documentation:</h2>
      <ul className="plain-list boundary__roots" data-testid="boundary-roots">
        {boundary.roots.map((root) => (
          <li key={`${root.origin}${root.path}`} data-testid="boundary-root">
            {rootLabel(root)}
          </li>
        ))}
      </ul>
      {boundary.why.length > 0 && (
        <ul className="boundary__why" data-testid="boundary-why">
          {boundary.why.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
      <p data-testid="boundary-count">{listedWords(boundary, cut(plan))}</p>
      {inside > 0 && Number.isFinite(maxPages) && <Limit inside={inside} maxPages={maxPages} onMaxPages={onMaxPages} />}
      {outside > 0 && inside === 0 && <p className="muted">Scout finds the documentation’s pages by following its links.</p>}
      {from && (
        <p className="muted boundary__from" data-testid="boundary-from">
          Worked out from {shortUrl(from, plan.origin)}, whose documentation holds this page; the crawl checks again from here as it starts.
        </p>
      )}
      {scope !== 'docs' && (
        <p className="note" data-testid="boundary-scope-note">
          The scope below is “{chosen}”: this crawl does not keep to the documentation.
        </p>
      )}
    </>
  );
}

/** The plan kept only the first `sitemapLimit` sitemap URLs: the counts are then lower bounds. */
const cut = (plan: PlanRecord) => plan.sitemapLimit !== undefined && (plan.sitemapUrls?.length ?? 0) >= plan.sitemapLimit;

/** "The sitemaps list 312 documentation pages (1,204 other pages of the site are left out)." */
export function listedWords(boundary: DocsBoundary, atLeast = false): string {
  const { inside, outside, fromSitemaps, fromLlms } = boundary.listed;
  if (!fromSitemaps && !fromLlms) return 'The site has no sitemap or llms.txt listing its pages: Scout finds them by following the documentation’s links.';
  const source = fromSitemaps && fromLlms ? 'The sitemaps and llms.txt files list' : fromSitemaps ? 'The sitemaps list' : 'The llms.txt files list';
  const left = outside > 0 ? ` (${plural(outside, 'other page')} of the site ${outside === 1 ? 'is' : 'are'} left out)` : '';
  return `${source}${atLeast ? ' at least' : ''} ${plural(inside, 'documentation page')}${left}.`;
}

function Limit({ inside, maxPages, onMaxPages }: { inside: number; maxPages: number; onMaxPages: (n: number) => void }) {
  if (maxPages >= inside) {
    return (
      <p className="boundary__limit" data-testid="boundary-limit" data-covers="true">
        Your page limit of {maxPages.toLocaleString('en')} covers them.
      </p>
    );
  }
  const raised = Math.min(inside, MAX_PAGES_LIMIT);
  return (
    <p className="boundary__limit boundary__limit--short" data-testid="boundary-limit" data-covers="false">
      <span>
        Raise the page limit to {raised.toLocaleString('en')} to cover {raised < inside ? `the first ${raised.toLocaleString('en')} of them (the most Scout crawls at once)` : 'them'}.
      </span>
      <button type="button" className="button button--small" onClick={() => onMaxPages(raised)} data-testid="raise-limit">
        Raise to {raised.toLocaleString('en')}
      </button>
    </p>
  );
}
