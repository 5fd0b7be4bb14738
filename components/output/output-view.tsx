import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo, useState } from 'react';
import { db } from '@/lib/store/db';
import { siteByOrigin } from '@/lib/store/sites';
import { validateLlmsTxt } from '@/lib/generate/validate';
import { normalizeOutputSettings, type OutputSettings } from '@/lib/generate/output-settings';
import type { Curation } from '@/lib/generate/types';
import { formatBytes, plural } from '../format';
import { DescribeCard } from '../describe/describe-card';
import { Coverage } from './coverage';
import { ContextPackCard } from './context-pack-card';
import { ExportBar } from './export-bar';
import { FilesCard } from './files-card';
import { FindingsList } from './findings-list';
import { LinkCheck } from './link-check';
import { fullTextOf, publishedFiles } from './published';
import { SearchCard } from './search-card';
import { SectionEditor } from './section-editor';
import { useOutput } from './use-output';
import { useLatestCrawl } from '../crawl/use-crawl';
import { CommandError, useCommand } from '../use-command';

/** The Output tab: the generated files, their findings and token counts, review, export. */
export function OutputView({ origin, host, onCrawl, onKit }: { origin: string; host: string; onCrawl: () => void; onKit?: () => void }) {
  const { llms, full, files, loaded } = useOutput(origin);
  const crawl = useLatestCrawl(origin);
  const site = useLiveQuery(() => siteByOrigin(db, origin), [origin]);
  const [view, setView] = useState<'review' | 'llms' | 'full'>('review');
  const { run, error, busy } = useCommand();
  const [selected, setSelected] = useState('/llms.txt');
  const published = useMemo(() => (llms ? publishedFiles(origin, llms, full, files) : []), [origin, llms, full, files]);
  const layout = files?.files;
  const file = published.find((f) => f.path === selected) ?? published[0];
  const findings = useMemo(() => (file ? validateLlmsTxt(file.text, file.url) : []), [file]);
  // The selected file's llms-full.txt is cut from the site's only when it is looked at (it can be megabytes).
  const fullText = useMemo(() => (view === 'full' && file && full ? fullTextOf(origin, file, full, layout) : ''), [view, file, full, layout, origin]);
  const settings = normalizeOutputSettings(site?.curation?.output);
  const changeSettings = (output: OutputSettings) => void regenerate({ ...(site?.curation ?? {}), output });

  const regenerate = (curation?: Curation) => run('generate', { origin, curation });

  if (!loaded) return null;
  // The worker builds the files right after a crawl ends (seconds for a large site): say so instead of "nothing yet".
  const building = !llms && crawl?.state === 'done' && crawl.endedAt !== undefined && Date.now() - crawl.endedAt < 120_000;
  if (building) {
    return (
      <section className="card" data-testid="output-building">
        <h2>Building llms.txt and llms-full.txt…</h2>
        <p className="muted"><span className="spinner" aria-hidden="true" /> From {plural(crawl.counters.stored ?? 0, 'stored page')}: counting tokens, choosing sections and descriptions. This takes a few seconds on large sites.</p>
      </section>
    );
  }
  if (!llms) {
    return (
      <>
      <section className="card" data-testid="output-empty">
        <h2>No llms.txt generated yet</h2>
        <p className="muted">Crawl the site first; the llms.txt and llms-full.txt are built from the pages it stores.</p>
        <div className="row">
          <button type="button" className="button button--primary" onClick={onCrawl}>Go to Generate</button>
          <button type="button" className="button" onClick={() => void regenerate()} disabled={busy}>Build from stored pages</button>
        </div>
        <CommandError error={error} />
      </section>
      <SearchCard origin={origin} />
      </>
    );
  }
  const sections = llms.model?.sections ?? [];
  const pages = sections.reduce((n, s) => n + s.entries.length, 0);
  const keptOut = (llms.model?.notDocs ?? []).filter((e) => !e.included).length;
  const root = published[0];
  return (
    <div className="output" data-testid="output">
      <section className="card output__summary">
        <div className="output__files">
          <div>
            <strong>llms.txt</strong>
            <span className="muted" data-testid="llms-size"> {formatBytes(new TextEncoder().encode(root?.text ?? llms.text).length)} · {plural(root?.tokens ?? llms.tokens, 'token')}{published.length > 1 ? ` · ${plural(published.length - 1, 'nested file')}` : ''}</span>
          </div>
          {full && (
            <div>
              <strong>llms-full.txt</strong>
              <span className="muted" data-testid="full-size"> {formatBytes(root?.full.chars ?? full.text.length)} · {plural(root?.full.tokens ?? full.tokens, 'token')}</span>
            </div>
          )}
        </div>
        <p className="muted">{plural(pages, 'page')} in {plural(sections.length, 'section')}{keptOut > 0 ? ` · ${plural(keptOut, 'page')} not documentation, kept out (see Review)` : ''} · version {llms.version} · {new Date(llms.createdAt).toLocaleString()}</p>
        <ExportBar host={host} origin={origin} llms={llms} full={full} published={published} layout={layout} onKit={onKit} />
      </section>
      <CommandError error={error} />
      <SearchCard origin={origin} />
      <FilesCard
        host={host} files={published} settings={settings} flatChars={layout?.flatChars ?? llms.text.length} selected={file?.path ?? '/llms.txt'} busy={busy}
        onSelect={setSelected} onView={(what) => setView(what)} onSettings={changeSettings}
        fullText={(f) => (full ? fullTextOf(origin, f, full, layout) : '')}
      />
      {full && layout && <ContextPackCard host={host} origin={origin} llms={llms} full={full} layout={layout} files={published} />}
      <Coverage origin={origin} llms={llms} />
      <DescribeCard origin={origin} />
      <div className="seg" role="tablist" aria-label="Output view">
        {(['review', 'llms', 'full'] as const).map((v) => (
          <button key={v} type="button" role="tab" aria-selected={view === v} className="seg__item" onClick={() => setView(v)}>
            {v === 'review' ? 'Review' : v === 'llms' ? `${published.length > 1 ? (file?.path.slice(1) ?? 'llms.txt') : 'llms.txt'}${findings.length ? ` (${findings.length})` : ''}` : published.length > 1 ? (file?.fullPath.slice(1) ?? 'llms-full.txt') : 'llms-full.txt'}
          </button>
        ))}
        {busy && <span className="spinner" role="status" aria-label="Updating" />}
      </div>
      {view === 'review' && <SectionEditor sections={sections} notDocs={llms.model?.notDocs} curation={site?.curation ?? {}} busy={busy} onChange={(c) => void regenerate(c)} />}
      {view === 'llms' && (
        <section className="card">
          <FindingsList findings={findings} />
          <LinkCheck text={file?.text ?? llms.text} url={file?.url ?? `${origin}/llms.txt`} />
          <pre className="raw" data-testid="llms-text">{file?.text ?? llms.text}</pre>
        </section>
      )}
      {view === 'full' && full && (
        <section className="card">
          <pre className="raw raw--tall" data-testid="full-text">{fullText.length > 200_000 ? `${fullText.slice(0, 200_000)}\n… (download for the rest)` : fullText}</pre>
        </section>
      )}
    </div>
  );
}
