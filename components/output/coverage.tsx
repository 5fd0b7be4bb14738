import { useObservable } from 'dexie-react-hooks';
import { useMemo, useState } from 'react';
import { db, type ArtifactRecord } from '@/lib/store/db';
import { findingById } from '@/lib/store/discovered';
import { coverageOfUrls, exportFileName } from '@/lib/generate/export';
import { watchPublishedListing } from '@/lib/output/published-listing';
import { plural, shortUrl } from '../format';
import { saveFile } from './download';

/** For sites that publish an llms.txt: which generated pages it lists and which it misses. */
export function Coverage({ origin, llms }: { origin: string; llms: ArtifactRecord }) {
  // The file's URLs only, read again when a discovery run finishes (not on each of its writes).
  const published = useObservable(() => watchPublishedListing(db, origin), [origin]);
  const [downloadNote, setDownloadNote] = useState<string | null>(null);
  const result = useMemo(() => {
    if (!published) return null;
    const generated = (llms.model?.sections ?? []).flatMap((s) => s.entries.map((e) => e.pageUrl));
    return coverageOfUrls(published.urls, generated);
  }, [published, llms]);
  // The file's text is read only to save it.
  const download = async () => {
    setDownloadNote(null);
    const row = await findingById(db, published?.id ?? -1);
    if (!row?.text) {
      setDownloadNote('That file is no longer stored: run discovery again (Discover tab).');
      return;
    }
    saveFile(exportFileName(new URL(origin).host, 'llms').replace('-llms.txt', '-published-llms.txt'), row.text, 'text/plain');
  };
  if (!published || !result) return null;
  const total = result.listed.length + result.missing.length;
  return (
    <section className="card" data-testid="coverage">
      <h2>Compared with the published llms.txt</h2>
      <p>
        <code>{shortUrl(published.url, origin)}</code> lists <strong data-testid="coverage-listed">{result.listed.length}</strong> of the {plural(total, 'crawled page')}
        {result.extra.length > 0 && `, plus ${plural(result.extra.length, 'link')} the crawl did not store`}.
      </p>
      {result.missing.length > 0 && (
        <details>
          <summary>{plural(result.missing.length, 'page')} it misses</summary>
          <ul className="plain-list">
            {result.missing.slice(0, 200).map((u) => <li key={u}><code>{shortUrl(u, origin)}</code></li>)}
          </ul>
        </details>
      )}
      <button type="button" className="link-button" onClick={() => void download().catch((error: unknown) => setDownloadNote(`Could not read the file: ${error instanceof Error ? error.message : String(error)}`))}>
        Download the published llms.txt
      </button>
      {downloadNote && <p className="muted" role="status">{downloadNote}</p>}
    </section>
  );
}
