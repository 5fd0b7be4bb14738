import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo } from 'react';
import { db, type ArtifactRecord } from '@/lib/db';
import { parseLlmsTxt } from '@/lib/discovery/parse-llms-txt';
import { coverage } from '@/lib/generate/export';
import { exportFileName } from '@/lib/generate/export';
import { plural, shortUrl } from '../format';
import { saveFile } from './download';

/** For sites that publish an llms.txt: which generated pages it lists and which it misses. */
export function Coverage({ origin, llms }: { origin: string; llms: ArtifactRecord }) {
  const published = useLiveQuery(async () => {
    const rows = await db.discovered.where('origin').equals(origin).toArray();
    return rows.find((r) => r.best && r.status === 'found' && r.text) ?? null;
  }, [origin]);
  const result = useMemo(() => {
    if (!published?.text) return null;
    const generated = (llms.model?.sections ?? []).flatMap((s) => s.entries.map((e) => e.pageUrl));
    return coverage(parseLlmsTxt(published.text, published.url), generated);
  }, [published, llms]);
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
      <button type="button" className="link-button" onClick={() => saveFile(exportFileName(new URL(origin).host, 'llms').replace('-llms.txt', '-published-llms.txt'), published.text ?? '', 'text/plain')}>
        Download the published llms.txt
      </button>
    </section>
  );
}
