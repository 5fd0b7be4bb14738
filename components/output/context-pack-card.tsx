import { useEffect, useMemo, useState } from 'react';
import type { ArtifactRecord } from '@/lib/store/db';
import { buildContextPack, PACK_BUDGETS, type ContextPack } from '@/lib/generate/context-pack';
import { packFileName } from '@/lib/generate/export';
import type { OutputFile, OutputFiles } from '@/lib/generate/output-files';
import { plural } from '../format';
import { saveFile } from './download';
import { packScopes } from './published';

const label = (budget: number) => (budget >= 1_000_000 ? `${budget / 1_000_000}M` : `${budget / 1000}k`);

/**
 * "Copy / download as context": the whole site or one part of it as one Markdown file within a
 * token budget. The pack is built when the card is open and the choices change, so the count it
 * shows is the count of exactly what Copy and Download give.
 */
export function ContextPackCard({ host, origin, llms, full, layout, files }: { host: string; origin: string; llms: ArtifactRecord; full: ArtifactRecord; layout: OutputFiles; files: OutputFile[] }) {
  const scopes = useMemo(() => packScopes(llms, files), [llms, files]);
  const [open, setOpen] = useState(false);
  const [scopeId, setScopeId] = useState(scopes[0]?.id ?? '');
  const [budget, setBudget] = useState<number>(128_000);
  const [pack, setPack] = useState<ContextPack | null>(null);
  const [building, setBuilding] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const chosen = scopes.find((s) => s.id === scopeId) ?? scopes[0];

  useEffect(() => {
    if (!open || !chosen) return;
    setBuilding(true);
    setNote(null);
    const sectionOf = new Map((llms.model?.sections ?? []).flatMap((s) => s.entries.map((e) => [e.key, s.name] as const)));
    const titleOf = new Map((llms.model?.sections ?? []).flatMap((s) => s.entries.map((e) => [e.key, e.title] as const)));
    // Let "Building…" paint first: a 1M-token pack of a large site takes a few seconds.
    const timer = setTimeout(() => {
      setPack(buildContextPack({ fullText: full.text, files: layout, scope: chosen.scope, origin, budget, lean: layout.settings.leanLinks, sectionOf: (k) => sectionOf.get(k) ?? '', titleOf: (k) => titleOf.get(k) ?? k }));
      setBuilding(false);
    }, 30);
    return () => clearTimeout(timer);
  }, [open, chosen, budget, llms, full, layout, origin]);

  const copy = async () => {
    if (!pack) return;
    await navigator.clipboard.writeText(pack.text);
    setNote(`Copied: ${plural(pack.tokens, 'token')}.`);
  };
  return (
    <details className="card pack" data-testid="context-pack" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary><h2>Copy or download as context</h2></summary>
      <p className="muted">Pages in reading order, whole pages only, to fit a model’s context window; a short table of contents and the list of what did not fit come first.</p>
      <div className="settings settings__grid">
        <label>
          Pages
          <select value={chosen?.id} onChange={(e) => setScopeId(e.target.value)} data-testid="pack-scope">
            {scopes.map((s) => <option key={s.id} value={s.id}>{s.label}</option>)}
          </select>
        </label>
        <label>
          Budget (o200k tokens)
          <select value={budget} onChange={(e) => setBudget(Number(e.target.value))} data-testid="pack-budget">
            {PACK_BUDGETS.map((b) => <option key={b} value={b}>{label(b)}</option>)}
          </select>
        </label>
      </div>
      <p className="pack__result" data-testid="pack-result" aria-live="polite">
        {building || !pack ? (
          <span className="progress"><span className="spinner" aria-hidden="true" /> Building the pack…</span>
        ) : (
          <>
            <strong>{plural(pack.tokens, 'token')}</strong> · {plural(pack.included.length, 'page')}
            {pack.leftOut.length > 0 ? ` · ${plural(pack.leftOut.length, 'page')} left out (listed in the pack)` : ' · nothing left out'}
          </>
        )}
      </p>
      <div className="row">
        <button type="button" className="button button--primary" disabled={building || !pack} onClick={() => void copy()} data-testid="pack-copy">Copy as context</button>
        <button type="button" className="button" disabled={building || !pack} onClick={() => pack && saveFile(packFileName(host, chosen?.id === scopes[0]?.id ? '' : (chosen?.label ?? ''), budget), pack.text, 'text/markdown')} data-testid="pack-download">Download</button>
      </div>
      {note && <p className="muted" role="status">{note}</p>}
    </details>
  );
}
