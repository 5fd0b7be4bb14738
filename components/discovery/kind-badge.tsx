import type { DiscoveredKind } from '@/lib/discovery/types';

const LABELS: Record<DiscoveredKind, string> = {
  llms: 'llms.txt',
  'llms-full': 'llms-full',
  markdown: 'markdown',
  sitemap: 'sitemap',
  robots: 'robots',
  'well-known': 'well-known',
};

/** A file-type badge; colours come from tokens so both themes work. */
export function KindBadge({ kind }: { kind: DiscoveredKind }) {
  return <span className={`badge badge--${kind}`} title={kind === 'well-known' ? 'At /.well-known/llms.txt: not in the llms.txt spec' : undefined}>{LABELS[kind]}</span>;
}
