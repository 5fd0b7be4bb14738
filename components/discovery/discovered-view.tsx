import { useMemo, useState } from 'react';
import { plural, shortUrl } from '../format';
import { FileRow } from './file-row';
import { buildTree, missingRows } from './order';
import type { DiscoveryState } from './use-discovery';

/** The Discovered tab: every file found, linked files as a tree, and what was checked in vain. */
export function DiscoveredView({ origin, state, onGenerate }: { origin: string; state: DiscoveryState; onGenerate: () => void }) {
  const { rows, shown, running, loaded } = state;
  const tree = useMemo(() => buildTree(rows), [rows]);
  const missing = useMemo(() => missingRows(rows), [rows]);
  const [openUrl, setOpenUrl] = useState<string | null>(null);
  const toggle = (url: string) => setOpenUrl((u) => (u === url ? null : url));

  if (!loaded || (!shown && !running)) {
    return <p className="card muted" data-testid="discovery-pending">Looking for llms.txt files…</p>;
  }
  const hasLlms = rows.some((r) => r.status === 'found' && (r.kind === 'llms' || r.kind === 'llms-full' || r.kind === 'well-known'));
  const finished = shown?.state === 'done';
  const overCap = shown?.counters.overCap ?? 0;
  const unlisted = shown?.counters.unlisted ?? 0;

  return (
    <div className="discovered" data-testid="discovered">
      {running && <p className="progress" role="status" data-testid="discovery-progress"><span className="spinner" aria-hidden="true" /> {running.message}</p>}
      {shown?.state === 'failed' && <p className="error" role="alert">{shown.message}</p>}
      {finished && shown?.endedAt !== undefined && (
        <p className="muted" data-testid="discovery-time">
          Site checked {new Date(shown.endedAt).toLocaleString()}. Other pages you open add only their folders not checked yet; Re-run checks the whole site again.
        </p>
      )}
      {finished && !hasLlms && (
        <section className="card card--muted" data-testid="no-llms">
          <h2>No llms.txt on this site</h2>
          <p>
            Scout checked this page’s folder and every folder above it, the page’s own links and /.well-known/. {rows.some((r) => r.status === 'found') ? 'It found the files below.' : 'It found no robots.txt or sitemap either.'}
          </p>
          <button type="button" className="button button--primary" onClick={onGenerate} data-testid="go-generate">
            Generate llms.txt from a crawl
          </button>
        </section>
      )}
      {tree.length > 0 && (
        <ul className="file-tree file-tree--root" aria-label="Discovered files">
          {tree.map((node) => (
            <FileRow key={node.row.url} node={node} origin={origin} openUrl={openUrl} onToggle={toggle} />
          ))}
        </ul>
      )}
      {overCap > 0 && (
        <p className="note" data-testid="cap-note">
          Stopped following linked llms files at the cap; {plural(overCap, 'more file')} on this site {overCap === 1 ? 'was' : 'were'} not fetched.
        </p>
      )}
      {unlisted > 0 && (
        <p className="note" data-testid="rows-note">
          Listed the first {plural(rows.length, 'location')}; {plural(unlisted, 'more location')} that this site’s files point to {unlisted === 1 ? 'was' : 'were'} not listed.
        </p>
      )}
      {missing.length > 0 && (
        <details className="checked" data-testid="checked">
          <summary>{plural(missing.length, 'other location')} checked, nothing there</summary>
          <ul>
            {missing.map((r) => (
              <li key={r.url}>
                <code>{shortUrl(r.url, origin)}</code> <span className="muted">{r.reason}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
