import { useLiveQuery } from 'dexie-react-hooks';
import { Fragment, useEffect, useId, useRef, useState, useSyncExternalStore, type KeyboardEvent, type ReactNode } from 'react';
import type { PageHit } from '@/lib/agents/page-search';
import { db } from '@/lib/store/db';
import { countPages, latestArtifact, latestCrawlWithPages } from '@/lib/store/queries';
import { plural } from '../format';
import { PagePreview } from '../crawl/page-preview';
import { PanelSearch, type SearchSource } from './panel-search';
import './search.css';

/** Results come this long after the last keystroke. */
const DEBOUNCE_MS = 100;

/**
 * The crawl whose pages are searched (the one the outputs are made from) and a stamp that changes
 * when they do: a page stored, a refresh's new version. Null when no crawl stored a page.
 */
function useSearchSource(origin: string): SearchSource | null | undefined {
  return useLiveQuery(async () => {
    const job = await latestCrawlWithPages(db, origin);
    if (!job) return null;
    const [count, llms] = await Promise.all([countPages(db, job.id), latestArtifact(db, origin, 'llms')]);
    return { jobId: job.id, stamp: `${job.id}:${count}:${llms?.version ?? 0}` };
  }, [origin]);
}

/** The search worker for as long as the card shows; the index is built off the panel's thread. */
function usePanelSearch(source: SearchSource | null | undefined) {
  const [search] = useState(() => new PanelSearch(new Worker(browser.runtime.getURL('/search-worker.js'))));
  useEffect(() => () => search.dispose(), [search]);
  useEffect(() => {
    if (source !== undefined) search.want(source);
  }, [search, source?.stamp, source]);
  return { search, state: useSyncExternalStore(search.subscribe, search.snapshot) };
}

const isWordChar = (char: string | undefined) => char !== undefined && /[\p{L}\p{N}]/u.test(char);

/**
 * `text` with the words that start with one of `words` marked (as React text: nothing is parsed as
 * HTML). Word starts only, as the index matches: "on" marks "on", never the end of "transaction".
 */
function marked(text: string, words: string[]): ReactNode {
  if (!words.length) return text;
  const lower = text.toLowerCase();
  const parts: ReactNode[] = [];
  let at = 0;
  while (at < text.length) {
    let next = -1;
    let length = 0;
    for (const word of words) {
      let found = lower.indexOf(word, at);
      while (found >= 0 && isWordChar(lower[found - 1])) found = lower.indexOf(word, found + 1);
      if (found >= 0 && (next < 0 || found < next || (found === next && word.length > length))) {
        next = found;
        length = word.length;
      }
    }
    if (next < 0) break;
    parts.push(<Fragment key={parts.length}>{text.slice(at, next)}</Fragment>, <mark key={parts.length + 1}>{text.slice(next, next + length)}</mark>);
    at = next + length;
  }
  parts.push(<Fragment key={parts.length}>{text.slice(at)}</Fragment>);
  return parts;
}

/**
 * Search over the crawled pages (the Output tab): results as you type, each with its title, the
 * heading it was found under and a snippet; a result opens the page's stored Markdown. The same
 * index as `scout mcp` (lib/agents/search-index.ts), built in a worker.
 */
export function SearchCard({ origin }: { origin: string }) {
  const source = useSearchSource(origin);
  const { search, state } = usePanelSearch(source);
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState<{ jobId: string; hit: PageHit } | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();

  useEffect(() => {
    const timer = setTimeout(() => search.search(query), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search, query]);

  if (source === undefined) return null;
  // The last answer stays until the next one comes, so results do not blink between keystrokes.
  const results = query.trim() ? state.results : null;
  const buttons = () => [...(list.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
  const openHit = (hit: PageHit | undefined) => {
    if (hit && results) setOpen({ jobId: results.jobId, hit });
  };
  const onInputKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      openHit(results?.hits[0]);
    } else if (event.key === 'ArrowDown') {
      event.preventDefault();
      buttons()[0]?.focus();
    }
  };
  const onListKey = (event: KeyboardEvent<HTMLOListElement>) => {
    const all = buttons();
    const at = all.indexOf(document.activeElement as HTMLButtonElement);
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const next = at + (event.key === 'ArrowDown' ? 1 : -1);
      if (next < 0) input.current?.focus();
      else all[Math.min(next, all.length - 1)]?.focus();
    } else if (event.key === 'Escape') {
      input.current?.focus();
    }
  };

  const status = (() => {
    if (source === null) return 'No crawled pages to search yet: crawl the site in Generate, then search its pages here.';
    if (state.error) return state.error;
    if (state.indexing && !state.ready) return `Indexing ${state.indexing.indexed.toLocaleString('en')} of ${plural(state.indexing.total, 'page')}…`;
    if (!query.trim()) return state.ready ? `${plural(state.ready.pages, 'page')} indexed. Searches titles, headings and text.` : '';
    if (results && !results.hits.length) return `Nothing found for “${results.query.trim()}”. Try other words, or fewer.`;
    return state.indexing ? `Updating the index: ${state.indexing.indexed.toLocaleString('en')} of ${plural(state.indexing.total, 'page')}…` : '';
  })();

  return (
    <section className="card page-search" data-testid="page-search" aria-label="Search pages">
      <label htmlFor={inputId} className="page-search__label">Search the crawled pages</label>
      <input
        ref={input} id={inputId} type="search" className="page-search__input" data-testid="search-input"
        placeholder="e.g. open a transaction" autoComplete="off" spellCheck={false} disabled={source === null}
        value={query} onChange={(event) => { setQuery(event.target.value); setOpen(null); }} onKeyDown={onInputKey}
      />
      {status && <p className="muted page-search__status" role="status" data-testid="search-status">{status}</p>}
      {open ? (
        <PagePreview jobId={open.jobId} entry={{ key: open.hit.key }} onClose={() => { setOpen(null); requestAnimationFrame(() => input.current?.focus()); }} />
      ) : (
        results && results.hits.length > 0 && (
          <ol ref={list} className="page-search__results" data-testid="search-results" aria-label={`Results for ${query.trim()}`} onKeyDown={onListKey}>
            {results.hits.map((hit) => (
              <li key={hit.key}>
                <button type="button" className="search-hit" data-testid="search-result" title={hit.url} onClick={() => openHit(hit)}>
                  <span className="search-hit__title">{marked(hit.title, results.words)}</span>
                  {hit.heading && <span className="search-hit__heading truncate">{hit.heading}</span>}
                  {hit.snippet && <span className="search-hit__snippet">{marked(hit.snippet, results.words)}</span>}
                </button>
              </li>
            ))}
          </ol>
        )
      )}
    </section>
  );
}
