import { useState } from 'react';
import { db, type ArtifactRecord } from '@/lib/db';
import { buildZip, exportFileName } from '@/lib/generate/export';
import { latestCrawlWithPages } from '@/lib/generate/latest-crawl';
import { saveFile } from './download';

/** Download, copy, zip and JSON export of the generated files. */
export function ExportBar({ host, origin, llms, full }: { host: string; origin: string; llms: ArtifactRecord; full?: ArtifactRecord }) {
  const [note, setNote] = useState<string | null>(null);
  const pages = async () => {
    const job = await latestCrawlWithPages(db, origin);
    return job ? db.pages.where('[jobId+state]').equals([job.id, 'stored']).toArray() : [];
  };
  const zip = async () => {
    setNote('Building the zip…');
    const rows = await pages();
    const data = buildZip({ host, llmsTxt: llms.text, llmsFullTxt: full?.text ?? '', pages: rows.map((p) => ({ url: p.finalUrl, title: p.title, description: p.description, markdown: p.markdown, tokens: p.fullTokens?.count ?? p.tokens })) });
    saveFile(exportFileName(host, 'zip'), data, 'application/zip');
    setNote(`Zip of ${rows.length} pages saved.`);
  };
  const json = async () => {
    const rows = await pages();
    const meta = rows.map((p) => ({ url: p.finalUrl, title: p.title, description: p.description, tokens: p.fullTokens?.count ?? p.tokens, format: p.format, twinUrl: p.twinUrl, fetchedAt: new Date(p.fetchedAt).toISOString() }));
    saveFile(exportFileName(host, 'json'), JSON.stringify(meta, null, 2), 'application/json');
  };
  const copy = async () => {
    await navigator.clipboard.writeText(llms.text);
    setNote('llms.txt copied to the clipboard.');
  };
  return (
    <div className="export-bar" data-testid="export-bar">
      <button type="button" className="button button--primary" onClick={() => saveFile(exportFileName(host, 'llms'), llms.text, 'text/plain')} data-testid="download-llms">
        Download llms.txt
      </button>
      {full && (
        <button type="button" className="button" onClick={() => saveFile(exportFileName(host, 'llms-full'), full.text, 'text/plain')} data-testid="download-full">
          llms-full.txt
        </button>
      )}
      <button type="button" className="button" onClick={() => void copy()} data-testid="copy-llms">Copy</button>
      <button type="button" className="button" onClick={() => void zip()} data-testid="download-zip">Zip</button>
      <button type="button" className="button" onClick={() => void json()} data-testid="download-json">JSON</button>
      {note && <p className="muted export-bar__note" role="status">{note}</p>}
    </div>
  );
}
