import { useState } from 'react';
import { reportMarkdown } from '@/lib/check/report';
import { scoreOf } from '@/lib/check/score';
import { exportFileName } from '@/lib/generate/export';
import { saveFile } from '../output/download';
import { plural } from '../format';
import { CommandError, errorOf, useCommand } from '../use-command';
import { CheckRow } from './check-result';
import { KitCard } from './kit-card';
import { ScoreCard } from './score-card';
import { useCheck } from './use-check';
import './check.css';

/** A download name for the report: `docs.example.com-agent-check.md`. */
const reportName = (host: string) => exportFileName(host, 'check');

/**
 * The Check view: can agents use this site, and what to change. The worker runs the checks
 * (lib/check/, the engine `scout check` runs too); the report arrives on a Dexie job.
 */
export function CheckView({ origin, host, pageUrl }: { origin: string; host: string; pageUrl: string }) {
  const { job, crawledPages, loaded } = useCheck(origin);
  const [useCrawl, setUseCrawl] = useState(true);
  const { run: send, error, setError } = useCommand();
  const [note, setNote] = useState<string | null>(null);
  const running = job?.state === 'running';
  const report = job?.state === 'done' ? job.report : undefined;

  const run = async () => {
    setNote(null);
    const answer = await send('startCheck', { url: pageUrl, crawl: useCrawl && crawledPages > 0 });
    if (errorOf(answer) === 'no-access') setError('Scout has no access to this site yet. Allow it above.');
  };
  const copy = async () => {
    if (!report) return;
    await navigator.clipboard.writeText(reportMarkdown(report));
    setNote('Report copied as Markdown.');
  };

  if (!loaded) return null;
  const good = report && report.passed === report.applicable;
  return (
    <div className="check" data-testid="check-view">
      <section className="card">
        {report ? (
          <>
            <ScoreCard report={report} />
            <p className={`check__verdict ${good ? 'check__verdict--good' : 'check__verdict--bad'}`} data-testid="check-verdict">{report.verdict}</p>
            <p className="muted check__meta">
              {plural(report.sampled.length, 'page')} sampled · {plural(report.known, 'page')} known from the sitemap{report.crawled ? ' and the crawl' : ''} · {plural(report.findings.length, 'finding')} · {new Date(job?.endedAt ?? Date.now()).toLocaleString()}
            </p>
          </>
        ) : (
          <>
            <h2>Can agents use this site?</h2>
            <p className="muted">Scout checks the site’s llms.txt files, a sample of its pages, their Markdown twins, links, robots.txt and content negotiation, and says what to change.</p>
          </>
        )}
        {running && <p className="muted" role="status" data-testid="check-progress"><span className="spinner" aria-hidden="true" /> {job.message ?? 'Checking…'}</p>}
        {job?.state === 'failed' && <p className="error" role="alert">{job.message}</p>}
        <div className="check__actions">
          <button type="button" className={`button ${report ? '' : 'button--primary'}`} onClick={() => void run()} disabled={running} data-testid="run-check">
            {running ? 'Checking…' : report ? 'Check again' : 'Run the check'}
          </button>
          {report && (
            <>
              <button type="button" className="button" onClick={() => saveFile(reportName(host), reportMarkdown(report), 'text/markdown')} data-testid="export-check">Export Markdown</button>
              <button type="button" className="button" onClick={() => void copy()} data-testid="copy-check">Copy</button>
            </>
          )}
        </div>
        {crawledPages > 0 && (
          <label className="check__option">
            <input type="checkbox" checked={useCrawl} onChange={(e) => setUseCrawl(e.target.checked)} data-testid="check-use-crawl" />
            Include the {plural(crawledPages, 'page')} of the latest crawl in coverage and sampling
          </label>
        )}
        <CommandError error={error} />
        {note && <p className="muted check__meta" role="status">{note}</p>}
      </section>
      {report && (
        <section className="card" aria-label="Checks">
          {scoreOf(report).categories.map((category) => {
            const checks = report.checks.filter((c) => category.checks.includes(c.id));
            if (!checks.length) return null;
            return (
              <div key={category.id} className="check-group" data-testid="check-group" data-category={category.id}>
                <h3 className="check-group__title"><span>{category.name}</span><span>{category.score ?? '–'}</span></h3>
                <ul className="check-list" data-testid="check-list">
                  {checks.map((c) => <CheckRow key={c.id} check={c} />)}
                </ul>
              </div>
            );
          })}
        </section>
      )}
      <KitCard origin={origin} host={host} />
    </div>
  );
}
