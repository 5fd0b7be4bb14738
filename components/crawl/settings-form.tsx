import { useState, type FormEvent } from 'react';
import { DEFAULT_SETTINGS, MAX_PAGES_LIMIT, normalizeSettings, type CrawlSettings, type RenderMode } from '@/lib/crawl/settings';
import { createScope } from '@/lib/url/scope';
import { DEFAULT_CRAWL_DELAY_CAP_S } from '@/lib/crawl/host-gate';
import { DEFAULT_KEEP_CRAWLS, MAX_KEEP_CRAWLS } from '@/lib/store/keep';
import { BoundaryCard } from './boundary-card';
import { SCOPE_CHOICES } from './scope-words';
import type { PlanState } from './use-plan';

const lines = (text: string) => text.split('\n').map((l) => l.trim()).filter(Boolean);

/**
 * Crawl settings with sane defaults; patterns are checked before the crawl starts. `initial`
 * carries what the user chose for this site before (a lifted Crawl-delay cap). `plan` is what the
 * crawl would cover, shown above the form; its "Raise the page limit" sets the form's limit.
 */
export function SettingsForm({ startUrl, busy, onStart, initial, plan }: { startUrl: string; busy: boolean; onStart: (s: CrawlSettings) => void; initial?: Partial<CrawlSettings>; plan?: PlanState }) {
  const [s, setS] = useState<CrawlSettings>({ ...DEFAULT_SETTINGS, ...initial });
  const [include, setInclude] = useState('');
  const [exclude, setExclude] = useState('');
  const [error, setError] = useState<string | null>(null);
  const set = <K extends keyof CrawlSettings>(key: K, value: CrawlSettings[K]) => setS((prev) => ({ ...prev, [key]: value }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const settings = normalizeSettings({ ...s, include: lines(include), exclude: lines(exclude) });
    try {
      createScope({ startUrl, mode: settings.scope, include: settings.include, exclude: settings.exclude });
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      return;
    }
    setError(null);
    onStart(settings);
  };

  return (
    <>
      {plan && <BoundaryCard state={plan} maxPages={s.maxPages} onMaxPages={(n) => set('maxPages', n)} scope={s.scope} />}
      <form className="card settings" onSubmit={submit} data-testid="crawl-settings">
        <h2>Generate from a crawl</h2>
        <p className="muted">Scout crawls the site breadth-first with your browser (your logins work), turns pages into Markdown and keeps them on this computer.</p>
        <div className="settings__grid">
          <label>
            Max pages
            <input type="number" min={1} max={MAX_PAGES_LIMIT} value={s.maxPages} onChange={(e) => set('maxPages', e.target.valueAsNumber)} data-testid="max-pages" />
          </label>
          <label>
            Max depth
            <input type="number" min={0} max={50} value={s.maxDepth} onChange={(e) => set('maxDepth', e.target.valueAsNumber)} data-testid="max-depth" />
          </label>
          <label className="settings__wide">
            Scope
            <select value={s.scope} onChange={(e) => set('scope', e.target.value as CrawlSettings['scope'])} data-testid="scope">
              {SCOPE_CHOICES.map((c) => (
                <option key={c.value} value={c.value}>{c.label}</option>
              ))}
            </select>
          </label>
          <label className="settings__wide">
            Pages that need JavaScript
            <select value={s.render ?? 'auto'} title="Pages that arrive as an empty app shell are rendered in an inactive background tab, read, and the tab closed" onChange={(e) => set('render', e.target.value as RenderMode)} data-testid="render-mode">
              <option value="auto">Auto: render empty app shells</option>
              <option value="always">Always render in a tab</option>
              <option value="never">Never: keep what the server sends</option>
            </select>
          </label>
        </div>
        <details className="settings__more">
          <summary>More options</summary>
          <label>
            Only URLs matching (one pattern per line, e.g. <code>/docs/**</code>)
            <textarea rows={2} value={include} onChange={(e) => setInclude(e.target.value)} data-testid="include" />
          </label>
          <label>
            Skip URLs matching
            <textarea rows={2} value={exclude} onChange={(e) => setExclude(e.target.value)} data-testid="exclude" />
          </label>
          <label className="settings__check">
            <input type="checkbox" checked={s.respectRobots} onChange={(e) => set('respectRobots', e.target.checked)} /> Respect robots.txt
          </label>
          <label className="settings__check" title={`A site's robots.txt may ask for a pause between requests (Crawl-delay). Scout waits at most ${DEFAULT_CRAWL_DELAY_CAP_S} s, so a crawl ends in hours, not weeks.`}>
            <input type="checkbox" checked={s.liftCrawlDelayCap ?? false} onChange={(e) => set('liftCrawlDelayCap', e.target.checked)} data-testid="lift-delay-cap" /> Wait as long as robots.txt’s Crawl-delay asks (no {DEFAULT_CRAWL_DELAY_CAP_S} s cap)
          </label>
          <label title="When a crawl ends, older crawls of this site and their pages are deleted; the crawl the llms.txt is built from always stays.">
            Crawls of this site to keep
            <input type="number" min={1} max={MAX_KEEP_CRAWLS} value={s.keepCrawls ?? DEFAULT_KEEP_CRAWLS} onChange={(e) => set('keepCrawls', e.target.valueAsNumber)} data-testid="keep-crawls" />
          </label>
          <label className="settings__check">
            <input type="checkbox" checked={s.useSeeds} onChange={(e) => set('useSeeds', e.target.checked)} /> Start from the site’s llms.txt links and sitemaps too
          </label>
        </details>
        {error && <p className="error" role="alert" data-testid="settings-error">{error}</p>}
        <button type="submit" className="button button--primary" disabled={busy} data-testid="start-crawl">
          Start crawl
        </button>
      </form>
    </>
  );
}
