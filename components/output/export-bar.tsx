import { useState } from 'react';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { agentConfigs } from '@/lib/agents/agent-config';
import { docsFolderFromDb } from '@/lib/agents/from-db';
import { db, type ArtifactRecord } from '@/lib/store/db';
import { buildZipWithNotes, exportablePages, exportFileName } from '@/lib/generate/export';
import type { OutputFile, OutputFiles } from '@/lib/generate/output-files';
import { saveFile } from './download';
import { fullTextOf } from './published';
import { pagesInState } from '@/lib/store/page-outputs';
import { latestCrawlWithPages } from '@/lib/store/queries';
import { siteByOrigin } from '@/lib/store/sites';
import { outputChrome } from '@/lib/output/served-page';

/**
 * Download, copy, zip and JSON export of the generated files. The llms.txt is the root of the
 * files to publish; the zip holds every nested llms.txt and llms-full.txt at its path on the site.
 */
export function ExportBar({ host, origin, llms, full, published = [], layout, onKit }: { host: string; origin: string; llms: ArtifactRecord; full?: ArtifactRecord; published?: OutputFile[]; layout?: OutputFiles; onKit?: () => void }) {
  const [note, setNote] = useState<string | null>(null);
  // Each action says what failed in place of its "working" note; the buttons stay, to try again.
  const attempt = (what: string, action: () => void | Promise<void>) => () => {
    void (async () => action())().catch((error: unknown) => setNote(failureNote(what, error)));
  };
  const root = published[0];
  const rootText = root?.text ?? llms.text;
  const rootFull = () => (full ? (root ? fullTextOf(origin, root, full, layout) : full.text) : '');
  // The pages the files are made of: not the empty ones, nor those that are not documentation unless brought back.
  const crawl = async () => {
    const job = await latestCrawlWithPages(db, origin);
    if (!job) return null;
    const [rows, site] = await Promise.all([pagesInState(db, job.id), siteByOrigin(db, origin)]);
    return { job, rows, curation: site?.curation };
  };
  const pages = async () => {
    const read = await crawl();
    return read ? exportablePages(read.rows, read.curation) : [];
  };
  const zip = async () => {
    setNote('Building the zip…');
    const read = await crawl();
    const rows = read ? exportablePages(read.rows, read.curation) : [];
    // Each page without the chrome this version's llms-full.txt left out of it.
    const chrome = read ? await outputChrome(db, read.job.id, read.rows, read.curation) : undefined;
    const nested = full ? published.slice(1).flatMap((file) => [{ path: file.path, text: file.text }, { path: file.fullPath, text: fullTextOf(origin, file, full, layout) }]) : [];
    const { data, leftOut } = buildZipWithNotes({ host, llmsTxt: rootText, llmsFullTxt: rootFull(), nested, pages: rows.map((p) => ({ url: p.finalUrl, title: p.title, description: p.description, markdown: p.markdown, tokens: p.fullTokens?.count ?? p.tokens })), ...(chrome ? { chrome } : {}) });
    saveFile(exportFileName(host, 'zip'), data, 'application/zip');
    const left = leftOut.length ? ` ${leftOut.length === 1 ? 'One file was' : `${leftOut.length} files were`} left out, as ${leftOut.length === 1 ? 'its path' : 'their paths'} cannot be a file on every system: see left-out.txt in the zip.` : '';
    setNote(`Zip of ${rows.length} pages${nested.length ? ` and ${published.length} llms.txt files, laid out by path` : ''} saved.${left}`);
  };
  const json = async () => {
    setNote('Building the JSON file…');
    const rows = await pages();
    const meta = rows.map((p) => ({ url: p.finalUrl, title: p.title, description: p.description, tokens: p.fullTokens?.count ?? p.tokens, format: p.format, twinUrl: p.twinUrl, fetchedAt: new Date(p.fetchedAt).toISOString() }));
    saveFile(exportFileName(host, 'json'), JSON.stringify(meta, null, 2), 'application/json');
    setNote(`JSON file of ${rows.length} pages saved.`);
  };
  const copy = async () => {
    await navigator.clipboard.writeText(rootText);
    setNote('llms.txt copied to the clipboard.');
  };
  // The docs folder for coding agents (docs/docs-folder.md): the files above, each listed page as Markdown, manifest.json.
  const agents = async () => {
    setNote('Building the docs folder…');
    const folder = await docsFolderFromDb(db, origin, { scoutVersion: browser.runtime.getManifest().version, artifacts: { llms, ...(full ? { full } : {}), ...(layout ? { layout } : {}) } });
    if (!folder) {
      setNote('The pages of this version are no longer stored: generate again, then export.');
      return;
    }
    const files: Zippable = {};
    for (const file of folder.files) files[file.relativePath] = strToU8(file.text);
    saveFile(agentsZipName(host), zipSync(files, { level: 6 }), 'application/zip');
    const left = folder.leftOut.length ? ` ${folder.leftOut.length === 1 ? 'One file was' : `${folder.leftOut.length} files were`} left out: ${folder.leftOut.join('; ')}.` : '';
    setNote(`Docs for agents saved: ${folder.manifest.pages.length} pages and manifest.json. Unzip it into a folder of its own, then add it to your agent (Use with your agent, below).${left}`);
  };
  return (
    <div className="export-bar" data-testid="export-bar">
      <button type="button" className="button button--primary" onClick={attempt('save llms.txt', () => saveFile(exportFileName(host, 'llms'), rootText, 'text/plain'))} data-testid="download-llms">
        Download llms.txt
      </button>
      {full && (
        <button type="button" className="button" onClick={attempt('save llms-full.txt', () => saveFile(exportFileName(host, 'llms-full'), rootFull(), 'text/plain'))} data-testid="download-full">
          llms-full.txt
        </button>
      )}
      <button type="button" className="button" onClick={attempt('copy llms.txt', copy)} data-testid="copy-llms">Copy</button>
      <button type="button" className="button" onClick={attempt('build the zip', zip)} data-testid="download-zip">Zip</button>
      <button type="button" className="button" onClick={attempt('build the JSON file', json)} data-testid="download-json">JSON</button>
      <button type="button" className="button" onClick={attempt('build the docs folder', agents)} data-testid="download-agents" title="A folder for coding agents: the llms.txt files, each page as Markdown and manifest.json, served by scout mcp">
        Docs for agents
      </button>
      {/* The publishing kit (twins, server snippets) lives with the site check: the Check tab. */}
      {onKit && <button type="button" className="button" onClick={onKit} data-testid="open-kit" title="Publishing kit: the files at their paths, a .md twin per page, server snippets">Kit…</button>}
      {note && <p className="muted export-bar__note" role="status">{note}</p>}
      <AgentSetup host={host} />
    </div>
  );
}

/** "Could not build the zip: <why>. Try again." — the reason as the browser gave it, in one sentence. */
export function failureNote(what: string, error: unknown): string {
  const raw = (error instanceof Error ? error.message : String(error)).trim() || 'an unknown error';
  const why = /[.!?]$/.test(raw) ? raw : `${raw}.`;
  const storage = error instanceof Error && (error.name === 'QuotaExceededError' || (error as { inner?: { name?: string } }).inner?.name === 'QuotaExceededError');
  return `Could not ${what}: ${storage ? 'the browser has no room left (storage is full).' : why} Try again.`;
}

/** `docs.example.com-docs-for-agents.zip`, from the zip's own name rule (export.ts). */
const agentsZipName = (host: string) => exportFileName(host, 'zip').replace(/-llms-txt\.zip$/, '-docs-for-agents.zip');

/**
 * "Use with your agent": the two steps and the exact configuration for Claude Code, Cursor and VS
 * Code, each with Copy. The two paths are the reader's to give (Scout cannot see their disk); the
 * placeholders say what goes there until they do.
 */
function AgentSetup({ host }: { host: string }) {
  const [scoutFolder, setScoutFolder] = useState('');
  const [docsFolder, setDocsFolder] = useState('');
  const [copied, setCopied] = useState<string | null>(null);
  const configs = agentConfigs({ host, scoutFolder: scoutFolder.trim() || '/path/to/llms-txt-scout', docsFolder: docsFolder.trim() || `/path/to/${host.replace(/[^\w.-]+/g, '-')}-docs` });
  const copy = async (label: string, text: string) => {
    setCopied(null);
    try {
      await navigator.clipboard.writeText(text);
      setCopied(`${label} configuration copied to the clipboard.`);
    } catch (error) {
      setCopied(failureNote(`copy the ${label} configuration`, error));
    }
  };
  const blocks: Array<{ id: string; label: string; where: string; text: string }> = [
    { id: 'claude', label: 'Claude Code', where: 'Run in a terminal, in your project:', text: configs.claudeCode },
    { id: 'cursor', label: 'Cursor', where: 'In .cursor/mcp.json of your project (or ~/.cursor/mcp.json for every project):', text: configs.cursor },
    { id: 'vscode', label: 'VS Code', where: 'In .vscode/mcp.json of your project:', text: configs.vscode },
  ];
  return (
    // The panel's own settings styles; a full row of the export bar's wrapping line.
    <details className="settings settings__more agent-setup" style={{ flexBasis: '100%' }} data-testid="agent-setup">
      <summary>Use with your agent</summary>
      <ol className="agent-setup__steps">
        <li><strong>Export the folder:</strong> press <em>Docs for agents</em> and unzip the file into a folder of its own. Export again after a refresh and unzip over it: the agent's server reads it again by itself.</li>
        <li><strong>Add the server</strong> to your agent with one of the configurations below. It runs <code>scout mcp</code> from a copy of llms.txt Scout's source (Node.js 20 or newer; <code>npm ci</code> in it once) and reads only that folder: nothing goes online.</li>
      </ol>
      <label className="agent-setup__field">
        Scout's folder (the copy of its source, with package.json)
        <input type="text" value={scoutFolder} onChange={(e) => setScoutFolder(e.target.value)} placeholder="/path/to/llms-txt-scout" spellCheck={false} data-testid="agent-scout-folder" />
      </label>
      <label className="agent-setup__field">
        The docs folder (where you unzipped it: it holds manifest.json)
        <input type="text" value={docsFolder} onChange={(e) => setDocsFolder(e.target.value)} placeholder={`/path/to/${host}-docs`} spellCheck={false} data-testid="agent-docs-folder" />
      </label>
      {blocks.map((block) => (
        <div key={block.id} className="agent-setup__config">
          <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 'var(--space-2)' }}>
            <strong>{block.label}</strong>
            <button type="button" className="button" onClick={() => void copy(block.label, block.text)} data-testid={`copy-agent-${block.id}`}>Copy</button>
          </div>
          <p className="muted">{block.where}</p>
          <pre className="raw" data-testid={`agent-config-${block.id}`}>{block.text}</pre>
        </div>
      ))}
      {copied && <p className="muted" role="status">{copied}</p>}
    </details>
  );
}
