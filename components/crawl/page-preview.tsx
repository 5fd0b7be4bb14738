import { useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { db, type FrontierRecord } from '@/lib/store/db';
import { pageByKey } from '@/lib/store/pages';
import { chromeFor, previewOf } from '@/lib/output/served-page';
import { formatBytes } from '../format';

const PREVIEW_CHARS = 100_000;

/**
 * A stored page's Markdown, shown as text: nothing fetched is ever rendered as HTML. It shows the
 * page as Scout serves it (llms-full.txt, search, exports: without the chrome the site repeats on
 * its pages); where that differs, "As stored" shows the record as the crawl kept it.
 */
export function PagePreview({ jobId, entry, onClose }: { jobId: string; entry: Pick<FrontierRecord, 'key'>; onClose: () => void }) {
  const page = useLiveQuery(() => pageByKey(db, jobId, entry.key), [jobId, entry.key]);
  // null until read: the preview waits rather than flash the stored text first.
  const chrome = useLiveQuery(async () => (await chromeFor(db, { jobId })) ?? null, [jobId]);
  const [asStored, setAsStored] = useState(false);
  if (page === undefined || chrome === undefined) return null;
  const { text, cut } = previewOf(chrome ?? undefined, page, asStored);
  return (
    <div className="preview" data-testid="page-preview">
      <div className="preview__head">
        <div className="preview__title">
          <strong>{page.title}</strong>
          <span className="muted">
            {page.format === 'markdown' ? (page.twinUrl ? 'Markdown twin' : 'Markdown from the server') : page.rendered ? 'Rendered in a background tab, converted' : 'Converted from HTML'} · {formatBytes(text.length)}
            {page.state === 'duplicate' && ' · duplicate of another page'}
            {cut > 0 && !asStored && ` · without the site's repeated chrome (${formatBytes(cut)})`}
          </span>
        </div>
        <button type="button" className="icon-button" onClick={onClose} aria-label="Close preview">✕</button>
      </div>
      {cut > 0 && (
        <label className="muted">
          <input type="checkbox" data-testid="page-as-stored" checked={asStored} onChange={(event) => setAsStored(event.currentTarget.checked)} /> As stored (with the chrome the site repeats on its pages)
        </label>
      )}
      {page.shell && <p className="muted" data-testid="page-shell">{page.shell}</p>}
      {page.description && <p className="preview__desc">{page.description}</p>}
      <pre className="raw" data-testid="page-markdown">{text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}\n…` : text}</pre>
    </div>
  );
}
