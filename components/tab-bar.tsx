import type { KeyboardEvent } from 'react';

export interface TabDef<T extends string> {
  id: T;
  label: string;
  badge?: string;
}

/** Views as tabs, keyboard-reachable: arrow keys move between them (WAI-ARIA tabs pattern). */
export function TabBar<T extends string>({ tabs, current, onSelect }: { tabs: Array<TabDef<T>>; current: T; onSelect: (id: T) => void }) {
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    const i = tabs.findIndex((t) => t.id === current);
    const next = tabs[(i + (e.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
    if (next) {
      onSelect(next.id);
      e.currentTarget.querySelector<HTMLButtonElement>(`[data-tab="${next.id}"]`)?.focus();
    }
  };
  return (
    <div className="tab-bar" role="tablist" onKeyDown={onKey}>
      {tabs.map((t) => (
        <button
          key={t.id}
          type="button"
          role="tab"
          data-tab={t.id}
          aria-selected={t.id === current}
          tabIndex={t.id === current ? 0 : -1}
          className="tab-bar__tab"
          onClick={() => onSelect(t.id)}
        >
          {t.label}
          {t.badge && <span className="tab-bar__badge">{t.badge}</span>}
        </button>
      ))}
    </div>
  );
}
