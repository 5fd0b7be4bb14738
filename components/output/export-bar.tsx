import { useState } from 'react';
import { db, type ArtifactRecord } from '@/lib/db';
import { buildZipWithNotes, exportablePages, exportFileName } from '@/lib/generate/export';
import type { OutputFile, OutputFiles } from '@/lib/generate/output-files';
import { saveFile } from './download';
import { fullTextOf } from './published';
import { latestCrawlWithPages, pagesOf } from '@/lib/queries';

/**
 * Download, copy, zip and JSON export of the generated files. The llms.txt is the root of the
 * files to publish; the zip holds every nested llms.txt and llms-full.txt at its path on the site.
 */
export function ExportBar({ host, origin, llms, full, published = [], layout, onKit }: { host: string; origin: string; llms: ArtifactRecord; full?: ArtifactRecord; published?: OutputFile[]; layout?: OutputFiles; onKit?: () => void }) {
  const [note, setNote] = useState<string | null>(null);
  const root = published[0];
  const rootText = root?.text ?? llms.text;
  const rootFull = () => (full ? (root ? fullTextOf(origin, root, full, layout) : full.text) : '');
  // The pages the files are made of: not the empty ones, nor those that are not documentation unless brought back.
  const pages = async () => {
    const job = await latestCrawlWithPages(db, origin);
    if (!job) return [];
    const [rows, site] = await Promise.all([pagesOf(db, job.id).toArray(), db.sites.get(origin)]);
    return exportablePages(rows, site?.curation);
  };
  const zip = async () => {
    setNote('Building the zip…');
    const rows = await pages();
    const nested = full ? published.slice(1).flatMap((file) => [{ path: file.path, text: file.text }, { path: file.fullPath, text: fullTextOf(origin, file, full, layout) }]) : [];
    const { data, leftOut } = buildZipWithNotes({ host, llmsTxt: rootText, llmsFullTxt: rootFull(), nested, pages: rows.map((p) => ({ url: p.finalUrl, title: p.title, description: p.description, markdown: p.markdown, tokens: p.fullTokens?.count ?? p.tokens })) });
    saveFile(exportFileName(host, 'zip'), data, 'application/zip');
    const left = leftOut.length ? ` ${leftOut.length === 1 ? 'One file was' : `${leftOut.length} files were`} left out, as ${leftOut.length === 1 ? 'its path' : 'their paths'} cannot be a file on every system: see left-out.txt in the zip.` : '';
    setNote(`Zip of ${rows.length} pages${nested.length ? ` and ${published.length} llms.txt files, laid out by path` : ''} saved.${left}`);
  };
  const json = async () => {
    const rows = await pages();
    const meta = rows.map((p) => ({ url: p.finalUrl, title: p.title, description: p.description, tokens: p.fullTokens?.count ?? p.tokens, format: p.format, twinUrl: p.twinUrl, fetchedAt: new Date(p.fetchedAt).toISOString() }));
    saveFile(exportFileName(host, 'json'), JSON.stringify(meta, null, 2), 'application/json');
  };
  const copy = async () => {
    await navigator.clipboard.writeText(rootText);
    setNote('llms.txt copied to the clipboard.');
  };
  return (
    <div className="export-bar" data-testid="export-bar">
      <button type="button" className="button button--primary" onClick={() => saveFile(exportFileName(host, 'llms'), rootText, 'text/plain')} data-testid="download-llms">
        Download llms.txt
      </button>
      {full && (
        <button type="button" className="button" onClick={() => saveFile(exportFileName(host, 'llms-full'), rootFull(), 'text/plain')} data-testid="download-full">
          llms-full.txt
        </button>
      )}
      <button type="button" className="button" onClick={() => void copy()} data-testid="copy-llms">Copy</button>
      <button type="button" className="button" onClick={() => void zip()} data-testid="download-zip">Zip</button>
      <button type="button" className="button" onClick={() => void json()} data-testid="download-json">JSON</button>
      {/* The publishing kit (twins, server snippets) lives with the site check: the Check tab. */}
      {onKit && <button type="button" className="button" onClick={onKit} data-testid="open-kit" title="Publishing kit: the files at their paths, a .md twin per page, server snippets">Kit…</button>}
      {note && <p className="muted export-bar__note" role="status">{note}</p>}
    </div>
  );
}
