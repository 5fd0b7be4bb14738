import { useEffect, useRef, useState, type KeyboardEvent } from 'react';

export interface TabDef<T extends string> {
  id: T;
  label: string;
  badge?: string;
}

/** Views as tabs, keyboard-reachable: arrow keys move between them (WAI-ARIA tabs pattern). */
export function TabBar<T extends string>({ tabs, current, onSelect }: { tabs: Array<TabDef<T>>; current: T; onSelect: (id: T) => void }) {
  const bar = useRef<HTMLDivElement>(null);
  const more = useOverflow(bar);
  // The chosen tab stays in view when the bar scrolls (a narrow panel, a badge widening a tab).
  useEffect(() => {
    bar.current?.querySelector(`[data-tab="${current}"]`)?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [current]);
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
    <div ref={bar} className="tab-bar" role="tablist" onKeyDown={onKey} data-more={more ?? undefined}>
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

/** Which edge of a sideways-scrolling element hides something: 'start', 'end', 'both' or null. */
function useOverflow(ref: React.RefObject<HTMLElement | null>): 'start' | 'end' | 'both' | null {
  const [more, setMore] = useState<'start' | 'end' | 'both' | null>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const start = el.scrollLeft > 1;
      const end = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
      setMore(start && end ? 'both' : start ? 'start' : end ? 'end' : null);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    for (const child of el.children) observer.observe(child);
    el.addEventListener('scroll', measure, { passive: true });
    return () => {
      observer.disconnect();
      el.removeEventListener('scroll', measure);
    };
  }, [ref]);
  return more;
}
