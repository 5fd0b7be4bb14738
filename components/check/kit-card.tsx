import { useState } from 'react';
import { buildKit, SNIPPET_FILES, zipKit, type TwinLayout } from '@/lib/check/kit';
import { db } from '@/lib/store/db';
import { exportablePages, exportFileName } from '@/lib/generate/export';
import { pagesInState } from '@/lib/store/page-outputs';
import { latestCrawlWithPages } from '@/lib/store/queries';
import { siteByOrigin } from '@/lib/store/sites';
import { outputChrome } from '@/lib/output/served-page';
import { saveFile } from '../output/download';
import { fullTextOf, publishedFiles } from '../output/published';
import { useOutput } from '../output/use-output';
import { plural } from '../format';
import { SnippetsList } from './snippets-list';

type LlmsLayout = 'as-output' | 'flat';

/**
 * The publishing kit: the generated llms.txt files at their paths, llms-full.txt, a .md twin per
 * page in the chosen layout, and the snippets that serve them, in one zip (lib/check/kit.ts).
 */
export function KitCard({ origin, host }: { origin: string; host: string }) {
  const { llms, full, files, loaded } = useOutput(origin);
  const [twins, setTwins] = useState<TwinLayout>('md');
  const [layout, setLayout] = useState<LlmsLayout>('as-output');
  const [note, setNote] = useState<string | null>(null);
  const [snippets, setSnippets] = useState<ReturnType<typeof buildKit>['snippets'] | null>(null);
  if (!loaded) return null;
  const published = llms ? publishedFiles(origin, llms, full, files) : [];

  const build = async () => {
    if (!llms) return null;
    const llmsFiles = layout === 'flat' || published.length <= 1
      ? [{ path: '/llms.txt', text: llms.text }, ...(full ? [{ path: '/llms-full.txt', text: full.text }] : [])]
      : published.flatMap((f) => [{ path: f.path, text: f.text }, ...(full ? [{ path: f.fullPath, text: fullTextOf(origin, f, full, files?.files) }] : [])]);
    const job = await latestCrawlWithPages(db, origin);
    // A page read from its twin has the twin as finalUrl; the kit names twins after the page itself.
    // The twins are the pages the llms.txt lists: not empty pages, nor pages that are not documentation unless brought back.
    const stored = job ? await pagesInState(db, job.id) : [];
    const curation = (await siteByOrigin(db, origin))?.curation;
    const pages = exportablePages(stored, curation);
    // Each twin without the chrome this version's llms-full.txt left out of its page.
    const chrome = job ? await outputChrome(db, job.id, stored, curation) : undefined;
    return buildKit({ origin, files: llmsFiles, pages: pages.map((p) => ({ url: p.twinUrl ? p.url : p.finalUrl, markdown: p.markdown })), layout: twins, ...(chrome ? { chrome } : {}) });
  };
  const download = async () => {
    setNote('Building the kit…');
    const kit = await build();
    if (!kit) return;
    setSnippets(kit.snippets);
    saveFile(exportFileName(host, 'kit'), zipKit(kit), 'application/zip');
    setNote(`Kit saved: ${plural(kit.files.size - Object.keys(SNIPPET_FILES).length - 1 - kit.twins, 'llms file')}, ${plural(kit.twins, 'Markdown twin')}, ${plural(Object.keys(SNIPPET_FILES).length, 'snippet')}${kit.skipped.length ? ` (${plural(kit.skipped.length, 'page')} without a twin: see README.md)` : ''}.${kit.leftOut.length ? ` ${plural(kit.leftOut.length, 'llms file')} left out, as ${kit.leftOut.length === 1 ? 'its path' : 'their paths'} cannot be a file on every system: see README.md.` : ''}`);
  };
  const show = async () => setSnippets((await build())?.snippets ?? null);

  if (!llms) {
    return (
      <section className="card" data-testid="kit-card">
        <h2>Publishing kit</h2>
        <p className="muted">Crawl the site (Generate tab) first: the kit holds the generated llms.txt files, a Markdown twin of every page and the snippets to serve them.</p>
      </section>
    );
  }
  return (
    <section className="card" data-testid="kit-card">
      <h2>Publishing kit</h2>
      <p className="muted">One zip to unpack onto the site: <code>site/</code> holds the llms.txt files at their paths, llms-full.txt and a Markdown twin per page; <code>snippets/</code> the tags and header rules that point agents to them.</p>
      <dl className="kit__choices">
        <dt>llms.txt</dt>
        <dd className="row">
          <label className="check__option"><input type="radio" name="kit-layout" checked={layout === 'as-output'} onChange={() => setLayout('as-output')} data-testid="kit-nested" />{published.length > 1 ? `Nested (${plural(published.length, 'file')})` : 'As in Output'}</label>
          <label className="check__option"><input type="radio" name="kit-layout" checked={layout === 'flat'} onChange={() => setLayout('flat')} data-testid="kit-flat" />One flat file</label>
        </dd>
        <dt>Twins</dt>
        <dd className="row">
          <label className="check__option"><input type="radio" name="kit-twins" checked={twins === 'md'} onChange={() => setTwins('md')} data-testid="kit-twins-md" />page.md (v2)</label>
          <label className="check__option"><input type="radio" name="kit-twins" checked={twins === 'html.md'} onChange={() => setTwins('html.md')} data-testid="kit-twins-html-md" />page.html.md (v1)</label>
        </dd>
      </dl>
      <div className="check__actions">
        <button type="button" className="button button--primary" onClick={() => void download()} data-testid="download-kit">Download kit</button>
        <button type="button" className="button" onClick={() => void show()} data-testid="show-snippets">{snippets ? 'Refresh snippets' : 'Show snippets'}</button>
      </div>
      {note && <p className="muted check__meta" role="status" data-testid="kit-note">{note}</p>}
      {snippets && <SnippetsList snippets={snippets} />}
    </section>
  );
}
