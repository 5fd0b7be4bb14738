import type { PanelTarget } from '@/lib/tabs/target';
import { Logo } from './logo';

/** Shown for browser pages, files, stores and tabs whose address Scout may not read. */
export function NoSite({ target }: { target: Exclude<PanelTarget, { kind: 'site' }> }) {
  return (
    <main className="no-site" data-testid="no-site">
      <Logo size={40} />
      <h1>Nothing to inspect here</h1>
      <p>{target.reason}</p>
      {target.kind === 'unsupported' && <code className="no-site__url">{target.url}</code>}
      <p className="muted">Scout finds llms.txt files on documentation sites and can generate one from a crawl.</p>
    </main>
  );
}
