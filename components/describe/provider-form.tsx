import { useEffect, useState } from 'react';
import { builtinAvailability, type BuiltinAvailability } from '@/lib/describe/builtin';
import { endpointProblem, type DescribeSettings } from '@/lib/describe/settings';

/**
 * Which provider writes descriptions. The built-in choice appears only where Chrome
 * says its on-device Summarizer can be used. Saving an endpoint asks for access to
 * that one host (in the click, as permission prompts require).
 */
export function ProviderForm({ settings, onSave }: { settings: DescribeSettings; onSave: (s: DescribeSettings) => Promise<void> }) {
  const [draft, setDraft] = useState(settings);
  const [builtin, setBuiltin] = useState<BuiltinAvailability>('unavailable');
  const [note, setNote] = useState<string | null>(null);
  useEffect(() => setDraft(settings), [settings]);
  useEffect(() => void builtinAvailability(globalThis).then(setBuiltin), []);
  const endpoint = draft.endpoint;
  const set = (change: Partial<DescribeSettings['endpoint']>) => setDraft({ ...draft, endpoint: { ...endpoint, ...change } });

  const save = async () => {
    setNote(null);
    if (draft.provider === 'endpoint') {
      const problem = endpointProblem(endpoint);
      if (problem) return setNote(problem);
      const origin = new URL(endpoint.url).origin;
      const granted = await browser.permissions.request({ origins: [`${origin}/*`] }).catch(() => false);
      if (!granted) return setNote(`Scout needs your permission to contact ${origin}; nothing was saved.`);
    }
    await onSave(draft);
    setNote('Saved.');
  };

  return (
    <div className="settings provider-form" data-testid="provider-form">
      <label>
        Descriptions written by
        <select value={draft.provider} onChange={(e) => setDraft({ ...draft, provider: e.target.value as DescribeSettings['provider'] })} data-testid="provider">
          <option value="none">Scout (from each page; nothing leaves the browser)</option>
          {builtin !== 'unavailable' && <option value="builtin">Chrome’s on-device model{builtin === 'available' ? '' : ' (downloads first)'}</option>}
          <option value="endpoint">Your OpenAI-compatible endpoint</option>
        </select>
      </label>
      {draft.provider === 'endpoint' && (
        <div className="settings__grid">
          <label className="settings__wide">Endpoint URL<input type="url" value={endpoint.url} placeholder="https://openrouter.ai/api/v1" onChange={(e) => set({ url: e.target.value })} data-testid="endpoint-url" /></label>
          <label>Model<input value={endpoint.model} placeholder="gpt-4o-mini" onChange={(e) => set({ model: e.target.value })} data-testid="endpoint-model" /></label>
          <label>API key<input type="password" autoComplete="off" value={endpoint.apiKey ?? ''} placeholder="optional for local servers" onChange={(e) => set({ apiKey: e.target.value })} data-testid="endpoint-key" /></label>
          <label>Requests at once<input type="number" min={1} max={16} value={draft.concurrency} onChange={(e) => setDraft({ ...draft, concurrency: Number(e.target.value) })} data-testid="endpoint-concurrency" /></label>
          <label>Pages per run at most<input type="number" min={1} max={10000} value={draft.maxPages} onChange={(e) => setDraft({ ...draft, maxPages: Number(e.target.value) })} data-testid="endpoint-max-pages" /></label>
        </div>
      )}
      <div className="row">
        <button type="button" className="button" onClick={() => void save()} data-testid="save-provider">Save</button>
        {note && <span className="muted" role="status" data-testid="provider-note">{note}</span>}
      </div>
      {draft.provider === 'endpoint' && <p className="muted">The key stays in this browser’s extension storage: it is never synced, exported or shown in messages.</p>}
    </div>
  );
}
