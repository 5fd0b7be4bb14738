import { useMemo, useState } from 'react';
import type { DiscoveredFileRecord } from '@/lib/store/db';
import { parseLlmsTxt } from '@/lib/discovery/parse-llms-txt';
import { validateLlmsTxt } from '@/lib/generate/validate';
import { FindingsList } from '../output/findings-list';
import { formatBytes } from '../format';

// Rendering megabytes into one <pre> freezes the panel; the rest stays a click away.
const RAW_PREVIEW_CHARS = 200_000;

/**
 * A discovered file: its parsed outline (llms files), its raw text and its
 * warnings. Everything is rendered as text by React — fetched content is never
 * injected as HTML, and only http(s) links become clickable.
 */
export function FileViewer({ row }: { row: DiscoveredFileRecord }) {
  const text = row.text ?? '';
  const isIndex = row.kind === 'llms' || row.kind === 'well-known';
  const parsed = useMemo(() => (isIndex ? parseLlmsTxt(text, row.url) : null), [isIndex, text, row.url]);
  const [tab, setTab] = useState<'outline' | 'raw' | 'warnings'>(isIndex ? 'outline' : 'raw');
  const findings = useMemo(() => (isIndex ? validateLlmsTxt(text, row.url) : []), [isIndex, text, row.url]);

  return (
    <div className="viewer" data-testid="viewer">
      <div className="viewer__tabs" role="tablist">
        {isIndex && <Tab id="outline" current={tab} onSelect={setTab}>Outline</Tab>}
        <Tab id="raw" current={tab} onSelect={setTab}>Raw</Tab>
        {isIndex && <Tab id="warnings" current={tab} onSelect={setTab}>{`Findings (${findings.length})`}</Tab>}
        <span className="viewer__spacer" />
        <button type="button" className="link-button" onClick={() => void navigator.clipboard.writeText(text)}>Copy</button>
        <a className="link-button" href={row.url} target="_blank" rel="noreferrer">Open</a>
      </div>
      {tab === 'outline' && parsed && (
        <div className="outline" data-testid="outline">
          <h3>{parsed.title ?? <em>No title (missing “# ” heading)</em>}</h3>
          {parsed.summary && <blockquote>{parsed.summary}</blockquote>}
          {parsed.detailLinks.length > 0 && <LinkList title="Links before the first section" links={parsed.detailLinks} />}
          {parsed.sections.map((s) => (
            <LinkList key={`${s.line}`} title={s.name} links={s.links} optional={s.optional} />
          ))}
        </div>
      )}
      {tab === 'raw' && (
        <pre className="raw" data-testid="raw">
          {text.length > RAW_PREVIEW_CHARS ? `${text.slice(0, RAW_PREVIEW_CHARS)}\n\n… showing the first ${formatBytes(RAW_PREVIEW_CHARS)}; open the file for the rest.` : text}
        </pre>
      )}
      {tab === 'warnings' && <FindingsList findings={findings} />}
    </div>
  );
}

function Tab<T extends string>({ id, current, onSelect, children }: { id: T; current: T; onSelect: (t: T) => void; children: string }) {
  return (
    <button type="button" role="tab" aria-selected={id === current} className="viewer__tab" onClick={() => onSelect(id)}>
      {children}
    </button>
  );
}

function LinkList({ title, links, optional }: { title: string; links: Array<{ name: string; url: string; notes?: string; line: number }>; optional?: boolean }) {
  return (
    <section className="outline__section">
      <h4>
        {title} <span className="muted">({links.length})</span> {optional && <span className="pill">optional</span>}
      </h4>
      <ul>
        {links.map((l) => (
          <li key={`${l.line}-${l.url}`}>
            {/^https?:/i.test(l.url) ? <a href={l.url} target="_blank" rel="noreferrer">{l.name}</a> : <span>{l.name}</span>}
            {l.notes && <span className="muted"> — {l.notes}</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}
