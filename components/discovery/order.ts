import type { DiscoveredFileRecord } from '@/lib/store/db';
import type { DiscoveredKind } from '@/lib/discovery/types';

const KIND_ORDER: DiscoveredKind[] = ['llms', 'llms-full', 'well-known', 'markdown', 'robots', 'sitemap'];

export interface TreeNode {
  row: DiscoveredFileRecord;
  children: TreeNode[];
}

/**
 * Found files as a tree: linked files under the file that links them, the best
 * llms.txt first, then by kind, then by URL. Rows whose parent is not itself
 * shown (a missing probe) become roots.
 */
export function buildTree(rows: DiscoveredFileRecord[]): TreeNode[] {
  const visible = rows.filter((r) => r.status === 'found' || r.status === 'not-followed' || (r.status === 'error' && r.depth > 0));
  const byUrl = new Map(visible.map((r) => [r.url, { row: r, children: [] as TreeNode[] }]));
  const roots: TreeNode[] = [];
  for (const node of byUrl.values()) {
    const parent = node.row.parentUrl ? byUrl.get(node.row.parentUrl) : undefined;
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  const sort = (nodes: TreeNode[]) => {
    nodes.sort((a, b) => rank(a.row) - rank(b.row) || a.row.url.localeCompare(b.row.url));
    nodes.forEach((n) => sort(n.children));
    return nodes;
  };
  return sort(roots);
}

function rank(r: DiscoveredFileRecord): number {
  const statusRank = r.status === 'found' ? 0 : 1;
  return (r.best ? -1000 : 0) + statusRank * 100 + KIND_ORDER.indexOf(r.kind) * 10 + Math.min(r.depth, 9);
}

/** Locations checked that had nothing, for the "checked locations" list. */
export function missingRows(rows: DiscoveredFileRecord[]): DiscoveredFileRecord[] {
  return rows.filter((r) => r.status === 'missing' || (r.status === 'error' && r.depth === 0)).sort((a, b) => a.url.localeCompare(b.url));
}
