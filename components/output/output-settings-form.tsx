import { useEffect, useState } from 'react';
import { MAX_BUDGET, MIN_BUDGET, normalizeOutputSettings, type OutputSettings } from '@/lib/generate/output-settings';

/**
 * The size budget, flat or nested layout, and token-lean links. Saved with the site's curation;
 * a change regenerates the files. The budget is applied when the field is left (or on Enter), not
 * on each keystroke: each change builds a new version.
 */
export function OutputSettingsForm({ settings, busy, onChange }: { settings: OutputSettings; busy: boolean; onChange: (next: OutputSettings) => void }) {
  const [budget, setBudget] = useState(String(settings.budget));
  useEffect(() => setBudget(String(settings.budget)), [settings.budget]);
  const commitBudget = () => {
    const next = normalizeOutputSettings({ ...settings, budget: Number(budget.replace(/[\s,_]/g, '')) });
    setBudget(String(next.budget));
    if (next.budget !== settings.budget) onChange(next);
  };
  return (
    <details className="settings settings__more output-settings" data-testid="output-settings">
      <summary>Size budget, layout and links</summary>
      <label>
        Characters per llms.txt
        <input
          type="number" min={MIN_BUDGET} max={MAX_BUDGET} step={1000} value={budget} disabled={busy} data-testid="budget-input"
          onChange={(e) => setBudget(e.target.value)} onBlur={commitBudget} onKeyDown={(e) => e.key === 'Enter' && e.currentTarget.blur()}
        />
      </label>
      <fieldset className="output-settings__layout" disabled={busy}>
        <legend className="muted">Over the budget</legend>
        <label className="settings__check">
          <input type="radio" name="layout" checked={settings.layout === 'nested'} onChange={() => onChange({ ...settings, layout: 'nested' })} data-testid="layout-nested" />
          Nested files: large sections get their own llms.txt
        </label>
        <label className="settings__check">
          <input type="radio" name="layout" checked={settings.layout === 'flat'} onChange={() => onChange({ ...settings, layout: 'flat' })} data-testid="layout-flat" />
          One flat llms.txt, whatever its size
        </label>
      </fieldset>
      <label className="settings__check">
        <input type="checkbox" checked={settings.leanLinks} disabled={busy} onChange={(e) => onChange({ ...settings, leanLinks: e.target.checked })} data-testid="lean-links" />
        Token-lean links in llms-full.txt and context packs (relative links, anchor links to pages in the file as text)
      </label>
    </details>
  );
}
