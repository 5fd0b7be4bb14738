import { useState } from 'react';
import type { Curation, LlmsSectionModel } from '@/lib/generate/types';
import { plural } from '../format';

interface Props {
  sections: LlmsSectionModel[];
  curation: Curation;
  onChange: (next: Curation) => void;
  busy: boolean;
}

/** Review before export: reorder and rename sections, move pages to Optional, leave pages out. */
export function SectionEditor({ sections, curation, onChange, busy }: Props) {
  const ids = sections.map((s) => s.id);
  const move = (i: number, by: number) => {
    const order = [...ids];
    const [id] = order.splice(i, 1);
    if (id === undefined) return;
    order.splice(i + by, 0, id);
    onChange({ ...curation, sectionOrder: order });
  };
  const toggle = (list: 'optional' | 'excluded', key: string) => {
    const current = new Set(curation[list] ?? []);
    if (current.has(key)) current.delete(key);
    else current.add(key);
    onChange({ ...curation, [list]: [...current] });
  };
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
      {excluded > 0 && (
        <p className="muted" data-testid="excluded-note">
          {plural(excluded, 'page')} left out.{' '}
          <button type="button" className="link-button" disabled={busy} onClick={() => onChange({ ...curation, excluded: [] })}>Put them back</button>
        </p>
      )}
    </div>
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
