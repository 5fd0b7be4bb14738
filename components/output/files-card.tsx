import { useState } from 'react';
import { siteFileName } from '@/lib/generate/export';
import type { OutputFile } from '@/lib/generate/output-files';
import type { OutputSettings } from '@/lib/generate/output-settings';
import { formatBytes, plural } from '../format';
import { saveFile } from './download';
import { OutputSettingsForm } from './output-settings-form';

interface Props {
  host: string;
  files: OutputFile[];
  settings: OutputSettings;
  /** Characters of the flat llms.txt. */
  flatChars: number;
  selected: string;
  onSelect: (path: string) => void;
  onView: (what: 'llms' | 'full') => void;
  /** The selected file's llms-full.txt text, built when asked for (it can be megabytes). */
  fullText: (file: OutputFile) => string;
  busy: boolean;
  onSettings: (next: OutputSettings) => void;
}

const n = (value: number) => value.toLocaleString('en');

function summary(files: OutputFile[], settings: OutputSettings, flatChars: number): { text: string; over: boolean } {
  const root = files[0];
  if (files.length > 1) return { text: `Nested: ${plural(files.length, 'llms.txt file')}, each within ${n(settings.budget)} characters. The flat llms.txt would be ${n(flatChars)}.`, over: false };
  const chars = root?.chars ?? flatChars;
  if (chars <= settings.budget) return { text: `One llms.txt of ${n(chars)} characters, within the ${n(settings.budget)}-character budget.`, over: false };
  return { text: `One flat llms.txt of ${n(chars)} characters, over the ${n(settings.budget)}-character budget: agents’ tools may cut it short.`, over: true };
}

/** The Output tab's files to publish: the tree of llms.txt files with sizes, and what can be done with each. */
export function FilesCard({ host, files, settings, flatChars, selected, onSelect, onView, fullText, busy, onSettings }: Props) {
  const [note, setNote] = useState<string | null>(null);
  const file = files.find((f) => f.path === selected) ?? files[0];
  const state = summary(files, settings, flatChars);
  const copy = async (text: string, what: string) => {
    await navigator.clipboard.writeText(text);
    setNote(`${what} copied to the clipboard.`);
  };
  return (
    <section className="card" data-testid="files-card">
      <h2>Files to publish</h2>
      <p className={state.over ? 'note' : 'muted'} data-testid="files-summary">{state.text}</p>
      <ul className="out-tree" data-testid="file-tree" aria-label="Files">
        {files.map((f) => (
          <li key={f.path} style={{ paddingLeft: `${f.depth * 14}px` }}>
            <button type="button" className="out-tree__row" aria-pressed={f.path === file?.path} onClick={() => onSelect(f.path)} data-testid="file-tree-row" data-path={f.path}>
              <span className="out-tree__path">{f.path}</span>
              <span className="out-tree__pages">{plural(f.keys.length, 'page')}</span>
              <span className="out-tree__facts">{n(f.chars)} chars · {plural(f.tokens, 'token')} <span aria-hidden="true">·</span> llms-full.txt {formatBytes(f.full.chars)} · {plural(f.full.tokens, 'token')}</span>
            </button>
          </li>
        ))}
      </ul>
      {file && (
        <div className="out-tree__actions" data-testid="file-actions">
          <div>
            <code>{file.path}</code>
            <button type="button" className="link-button" onClick={() => onView('llms')}>View</button>
            <button type="button" className="link-button" onClick={() => void copy(file.text, file.path)} data-testid="copy-file">Copy</button>
            <button type="button" className="link-button" onClick={() => saveFile(siteFileName(host, file.path), file.text, 'text/plain')} data-testid="download-file">Download</button>
          </div>
          <div>
            <code>{file.fullPath}</code>
            <button type="button" className="link-button" onClick={() => onView('full')}>View</button>
            <button type="button" className="link-button" onClick={() => void copy(fullText(file), file.fullPath)} data-testid="copy-file-full">Copy</button>
            <button type="button" className="link-button" onClick={() => saveFile(siteFileName(host, file.fullPath), fullText(file), 'text/plain')} data-testid="download-file-full">Download</button>
          </div>
        </div>
      )}
      {note && <p className="muted export-bar__note" role="status">{note}</p>}
      <OutputSettingsForm settings={settings} busy={busy} onChange={onSettings} />
    </section>
  );
}
