import type { DiscoveredFileRecord } from '@/lib/store/db';
import { formatBytes, plural, shortUrl } from '../format';
import { FileViewer } from './file-viewer';
import { KindBadge } from './kind-badge';
import type { TreeNode } from './order';

interface Props {
  node: TreeNode;
  origin: string;
  openUrl: string | null;
  onToggle: (url: string) => void;
}

/** One discovered file with its facts; linked files nest below it. Clicking opens the viewer in place. */
export function FileRow({ node, origin, openUrl, onToggle }: Props) {
  const { row } = node;
  const open = openUrl === row.url;
  const canOpen = row.status === 'found' && row.text !== undefined;
  return (
    <li className={`file${row.best ? ' file--best' : ''}`} data-testid="file-row" data-url={row.url} data-kind={row.kind} data-status={row.status}>
      <button type="button" className="file__head" onClick={() => onToggle(row.url)} aria-expanded={canOpen ? open : undefined} disabled={!canOpen}>
        <KindBadge kind={row.kind} />
        <span className="file__name truncate" title={row.url}>{shortUrl(row.url, origin)}</span>
        {row.best && <span className="pill pill--ok" data-testid="best">Best match</span>}
      </button>
      <p className="file__facts" data-testid="file-facts">{facts(row, origin)}</p>
      {row.reason && <p className="file__reason" data-testid="file-reason">{row.reason}</p>}
      {open && <FileViewer row={row} />}
      {node.children.length > 0 && (
        <ul className="file-tree" data-testid="children">
          {node.children.map((child) => (
            <FileRow key={child.row.url} node={child} origin={origin} openUrl={openUrl} onToggle={onToggle} />
          ))}
        </ul>
      )}
    </li>
  );
}

function facts(row: DiscoveredFileRecord, origin: string): string {
  if (row.status === 'not-followed') return 'Not followed';
  if (row.status === 'error') return 'Failed';
  const parts: string[] = [];
  // The text shown is this address's answer, not the row's.
  if (row.finalUrl) parts.push(`from ${shortUrl(row.finalUrl, origin)}`);
  if (row.title && (row.kind === 'llms' || row.kind === 'well-known' || row.kind === 'llms-full')) parts.push(`“${row.title}”`);
  if (row.bytes !== undefined) parts.push(formatBytes(row.bytes));
  if (row.kind === 'sitemap' && row.urlCount !== undefined) parts.push(plural(row.urlCount, 'URL'));
  if (row.kind === 'robots') parts.push(plural(row.urlCount ?? 0, 'sitemap'));
  if (row.linkCount !== undefined && row.kind !== 'robots' && row.kind !== 'llms-full') parts.push(plural(row.linkCount, 'link'));
  if (row.warningCount) parts.push(plural(row.warningCount, 'warning'));
  if (row.sources.includes('describedby')) parts.push('declared by the page');
  if (row.truncated) parts.push(row.cutByTime ? 'cut at the time limit' : 'cut at the size limit');
  return parts.join(' · ');
}
