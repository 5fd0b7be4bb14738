import { useLiveQuery } from 'dexie-react-hooks';
import { db, type FrontierRecord } from '@/lib/store/db';
import { pageByKey } from '@/lib/store/pages';
import { formatBytes } from '../format';

const PREVIEW_CHARS = 100_000;

/** A stored page's Markdown, shown as text: nothing fetched is ever rendered as HTML. */
export function PagePreview({ jobId, entry, onClose }: { jobId: string; entry: Pick<FrontierRecord, 'key'>; onClose: () => void }) {
  const page = useLiveQuery(() => pageByKey(db, jobId, entry.key), [jobId, entry.key]);
  if (page === undefined) return null;
  return (
    <div className="preview" data-testid="page-preview">
      <div className="preview__head">
        <div className="preview__title">
          <strong>{page.title}</strong>
          <span className="muted">
            {page.format === 'markdown' ? (page.twinUrl ? 'Markdown twin' : 'Markdown from the server') : page.rendered ? 'Rendered in a background tab, converted' : 'Converted from HTML'} · {formatBytes(page.markdown.length)}
            {page.state === 'duplicate' && ' · duplicate of another page'}
          </span>
        </div>
        <button type="button" className="icon-button" onClick={onClose} aria-label="Close preview">✕</button>
      </div>
      {page.shell && <p className="muted" data-testid="page-shell">{page.shell}</p>}
      {page.description && <p className="preview__desc">{page.description}</p>}
      <pre className="raw" data-testid="page-markdown">{page.markdown.length > PREVIEW_CHARS ? `${page.markdown.slice(0, PREVIEW_CHARS)}\n…` : page.markdown}</pre>
    </div>
  );
}
