import { useState } from 'react';
import { bringBack, toggleKey, type PageList } from '@/lib/generate/curation';
import type { Curation, LlmsSectionModel, NotDocsEntry } from '@/lib/generate/types';
import { plural } from '../format';

interface Props {
  sections: LlmsSectionModel[];
  /** Pages the evidence says are not documentation: left out unless brought back. */
  notDocs?: NotDocsEntry[];
  curation: Curation;
  onChange: (next: Curation) => void;
  busy: boolean;
}

/**
 * Review before export: reorder and rename sections, move pages to Optional, leave pages out, and
 * bring back pages that were kept out as not documentation (or send them away again).
 */
export function SectionEditor({ sections, notDocs = [], curation, onChange, busy }: Props) {
  const ids = sections.map((s) => s.id);
  const move = (i: number, by: number) => {
    const order = [...ids];
    const [id] = order.splice(i, 1);
    if (id === undefined) return;
    order.splice(i + by, 0, id);
    onChange({ ...curation, sectionOrder: order });
  };
  const toggle = (list: PageList, key: string) => onChange(toggleKey(curation, list, key));
  const excluded = curation.excluded?.length ?? 0;

  return (
    <div className="sections" data-testid="section-editor">
      {sections.map((section, i) => (
        <section key={section.id} className="card section-card" data-testid="section" data-section={section.id}>
          <div className="section-card__head">
            <SectionName section={section} disabled={busy || section.optional} onRename={(name) => onChange({ ...curation, renames: { ...curation.renames, [section.id]: name } })} />
            <span className="muted section-card__meta">{plural(section.entries.length, 'page')} · {plural(section.tokens, 'token')}</span>
            {!section.optional && (
              <span className="section-card__order">
                <button type="button" className="icon-button" disabled={busy || i === 0} onClick={() => move(i, -1)} aria-label={`Move ${section.name} up`}>↑</button>
                <button type="button" className="icon-button" disabled={busy || i >= sections.length - 1 || sections[i + 1]?.optional} onClick={() => move(i, 1)} aria-label={`Move ${section.name} down`}>↓</button>
              </span>
            )}
          </div>
          <ul className="entries">
            {section.entries.map((e) => (
              <li key={e.key} className="entry" data-testid="entry" data-key={e.key}>
                <div className="entry__text">
                  <span className="entry__title">{e.title}</span>
                  {e.description && <span className="entry__desc">{e.description}</span>}
                </div>
                <span className="entry__tokens muted">{e.tokens.toLocaleString('en')}</span>
                {(!section.optional || curation.optional?.includes(e.key)) && (
                  <button type="button" className="link-button" disabled={busy} onClick={() => toggle('optional', e.key)}>
                    {section.optional ? 'Restore' : 'Optional'}
                  </button>
                )}
                <button type="button" className="link-button" disabled={busy} onClick={() => toggle('excluded', e.key)} aria-label={`Leave out ${e.title}`}>Leave out</button>
              </li>
            ))}
          </ul>
        </section>
      ))}
      {notDocs.length > 0 && <NotDocsGroup entries={notDocs} busy={busy} onToggle={(entry) => onChange(bringBack(curation, entry.key, !entry.included))} />}
      {excluded > 0 && (
        <p className="muted" data-testid="excluded-note">
          {plural(excluded, 'page')} left out.{' '}
          <button type="button" className="link-button" disabled={busy} onClick={() => onChange({ ...curation, excluded: [] })}>Put them back</button>
        </p>
      )}
    </div>
  );
}

/** The pages kept out as not documentation, each with why and one button to bring it back or send it away. */
function NotDocsGroup({ entries, busy, onToggle }: { entries: NotDocsEntry[]; busy: boolean; onToggle: (entry: NotDocsEntry) => void }) {
  const back = entries.filter((e) => e.included).length;
  return (
    <section className="card section-card" data-testid="not-docs">
      <div className="section-card__head">
        <strong className="section-card__name">Not documentation ({entries.length})</strong>
        <span className="muted section-card__meta">{back > 0 ? `${back} brought back` : 'kept out of both files'}</span>
      </div>
      <ul className="entries">
        {entries.map((e) => (
          <li key={e.key} className="entry" data-testid="not-docs-entry" data-key={e.key} data-included={e.included ? 'true' : 'false'}>
            <div className="entry__text">
              <span className="entry__title" title={e.url}>{e.title}</span>
              <span className="entry__desc" title={e.reason}>{e.included ? `Brought back. ${e.reason}` : e.reason}</span>
            </div>
            <button type="button" className="link-button" disabled={busy} onClick={() => onToggle(e)} aria-label={`${e.included ? 'Keep out' : 'Bring back'} ${e.title}`}>
              {e.included ? 'Keep out' : 'Bring back'}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function SectionName({ section, disabled, onRename }: { section: LlmsSectionModel; disabled: boolean; onRename: (name: string) => void }) {
  const [value, setValue] = useState(section.name);
  const commit = () => {
    const name = value.trim();
    if (name && name !== section.name) onRename(name);
    else setValue(section.name);
  };
  return (
    <input
      className="section-card__name"
      value={value}
      disabled={disabled}
      aria-label="Section name"
      onChange={(e) => setValue(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => e.key === 'Enter' && e.currentTarget.blur()}
    />
  );
}
