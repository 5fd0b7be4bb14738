import type { FrontierRecord, LinkBlockRecord } from '../store/db';
import type { NewEntry } from '../store/db';
import { keyAt, rowAt as rowOf } from '../store/link-blocks';

/**
 * Pending links of one page at or above this many go into one record (a link block) rather
 * than one frontier row each. A row costs Chromium's IndexedDB ~0.1 ms with the frontier's
 * indexes, so a page of a few hundred links stays in rows (and in the panel's plain queries);
 * a page of 100,000 cost 10-14 s as rows and 0.05 s as one record (bench/idb-rows.ts).
 */
export const BLOCK_MIN = 500;

/**
 * Skipped links of one page at or above this many go into one block of skipped links: never
 * claimed, only lists read them, so any two cost one request where rows cost two. On the Python
 * docs most pages link out a few times and a changelog hundreds of times (2,080 bug-tracker
 * links); a threshold of 16 left over half the skipped URLs in rows.
 */
export const SKIPPED_BLOCK_MIN = 2;

/** A link block in memory, with `next`: the sequence number of its first URL not yet claimed. */
export interface Block extends LinkBlockRecord {
  next: number;
}

/** Sequence number one past the block's last URL. */
export const endOf = (b: LinkBlockRecord): number => b.seq + b.urls.length;

/** What `plan` made of a call's fresh entries: rows to insert (with their seq) and blocks. */
export interface Plan {
  rows: Array<NewEntry & { seq: number }>;
  blocks: LinkBlockRecord[];
  nextSeq: number;
}

/**
 * Sorts fresh entries (deduplicated, in the order found) into rows and blocks and numbers them.
 * A block holds the pending links of one page, or its skipped links with their reasons (same
 * depth, source and parent, nothing else attached: refresh validators and Markdown-twin hints
 * stay in rows); its URLs keep their order and take consecutive numbers from where the page's
 * first one stood, so the breadth-first order (depth, then seq) of everything else is unchanged.
 * Below `min` pending or `skippedMin` skipped links of a page, each is a row.
 */
export function plan(entries: NewEntry[], jobId: string, firstSeq: number, min = BLOCK_MIN, now = Date.now(), skippedMin = SKIPPED_BLOCK_MIN): Plan {
  const groupOf = (e: NewEntry): string | null =>
    e.source === 'link' && !e.preferMarkdown && Object.keys(e).every((k) => ENTRY_FIELDS.has(k)) ? `${e.state === 'skipped' ? 'skipped' : 'pending'}\u0000${e.depth}\u0000${e.parentUrl ?? ''}` : null;
  const groups = entries.map(groupOf);
  const sizes = new Map<string, number>();
  for (const g of groups) if (g !== null) sizes.set(g, (sizes.get(g) ?? 0) + 1);
  const open = new Map<string, LinkBlockRecord>();
  const rows: Plan['rows'] = [];
  const blocks: LinkBlockRecord[] = [];
  let seq = firstSeq;
  for (const [i, e] of entries.entries()) {
    const g = groups[i] ?? null;
    const size = g === null ? 0 : (sizes.get(g) ?? 0);
    const skipped = e.state === 'skipped';
    if (g === null || size < (skipped ? skippedMin : min)) {
      rows.push({ ...e, seq: seq++ });
      continue;
    }
    let block = open.get(g);
    if (!block) {
      block = { jobId, seq, depth: e.depth, source: e.source, urls: [], createdAt: now, ...(e.parentUrl === undefined ? {} : { parentUrl: e.parentUrl }), ...(skipped ? { state: 'skipped' as const, reasons: [] } : {}) };
      open.set(g, block);
      blocks.push(block);
      seq += size;
    }
    if (e.key !== e.url) (block.keys ??= {})[block.urls.length] = e.key;
    block.urls.push(e.url);
    block.reasons?.push(e.reason ?? '');
  }
  return { rows, blocks, nextSeq: seq };
}

/** Fields a NewEntry may have and still go into a block (anything else keeps it a row). */
const ENTRY_FIELDS = new Set(['url', 'key', 'depth', 'source', 'parentUrl', 'state', 'reason', 'preferMarkdown']);

export { keyAt, rowOf };

/** Block URLs not yet claimed. */
export const remaining = (b: Block): number => endOf(b) - b.next;

/**
 * Merges claimable rows (pending, in [depth, seq] order) with the blocks' unclaimed URLs and takes
 * the first `limit` in that order. Returns the picks and, per block, its `next` after them.
 */
export function mergeClaims(rows: FrontierRecord[], blocks: Block[], limit: number, now: number): { fromRows: FrontierRecord[]; fromBlocks: FrontierRecord[]; next: Map<Block, number> } {
  const next = new Map<Block, number>();
  for (const b of blocks) if (remaining(b) > 0) next.set(b, b.next);
  const fromRows: FrontierRecord[] = [];
  const fromBlocks: FrontierRecord[] = [];
  let r = 0;
  while (fromRows.length + fromBlocks.length < limit) {
    const row = rows[r];
    let head: Block | null = null;
    for (const [b, n] of next) {
      if (n >= endOf(b)) continue;
      const h = head ? (next.get(head) as number) : 0;
      if (!head || b.depth < head.depth || (b.depth === head.depth && n < h)) head = b;
    }
    const headSeq = head ? (next.get(head) as number) : 0;
    if (head && (!row || head.depth < row.depth || (head.depth === row.depth && headSeq < row.seq))) {
      fromBlocks.push(rowOf(head, headSeq, 'inflight', now));
      next.set(head, headSeq + 1);
    } else if (row) {
      fromRows.push(row);
      r++;
    } else break;
  }
  return { fromRows, fromBlocks, next };
}
