import type { FrontierRecord, FrontierState, LinkBlockRecord } from '../store/db';
import type { Store } from '../store/store';
import { rowsBetween, rowsNumbered, type ListKey } from '../store/frontier';
import { blockAt, blockSeqs } from '../store/link-blocks';
import { endOf, rowOf } from './link-blocks';

/** Which of a crawl's URLs a list shows: all of them (in the order found) or one state's (breadth-first). */
export type FrontierFilter = 'all' | FrontierState;

/** Link blocks never change once written, so a list reads each one once (they can be megabytes); per database. */
const blockCaches = new WeakMap<Store, Map<string, LinkBlockRecord>>();

type Key = ListKey;
const less = (a: Key, b: Key) => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);

/**
 * One window of a crawl's URL list: rows `offset` … `offset + limit - 1` in the list's order.
 * Frontier rows come from an index (10,000 URLs cost what 50 do); the link blocks' unclaimed URLs
 * (link-blocks.ts) are listed as pending where their numbers fall, and the blocks of skipped links
 * as skipped, so the list holds every URL the counters count. For 'all' the order is the
 * sequence; for a state, depth then sequence.
 */
export async function frontierWindow(db: Store, jobId: string, filter: FrontierFilter, offset: number, limit: number): Promise<FrontierRecord[]> {
  const byState = filter !== 'all';
  const start: Key = [0, 0];
  const end: Key = [Infinity, Infinity];
  const gaps = filter === 'all' || filter === 'pending' || filter === 'skipped' ? await unclaimed(db, jobId, filter) : [];
  // Breadth-first lists order by depth; the whole list by sequence alone (depth 0 for all).
  const keyOf = (b: LinkBlockRecord, seq: number): Key => [byState ? b.depth : 0, seq];
  gaps.sort((a, b) => (less(keyOf(a.block, a.next), keyOf(b.block, b.next)) ? -1 : 1));

  const out: FrontierRecord[] = [];
  let pos = 0;
  let lower = start;
  for (const gap of [...gaps, null]) {
    if (out.length >= limit) break;
    const upper = gap ? keyOf(gap.block, gap.next) : end;
    // Rows between the previous gap and this one. Read first, counted only when the window
    // starts past them: counting every row on each refresh held the frontier store against the
    // crawl's writes (a read transaction over 40,000 rows, four times a second).
    const range = rowsBetween(db, jobId, filter, lower, upper);
    const skip = offset + out.length - pos;
    const need = limit - out.length;
    const got = await range.read(skip, need);
    out.push(...got);
    if (!gap || out.length >= limit) break;
    pos += got.length > 0 ? skip + got.length : await range.count();
    const size = endOf(gap.block) - gap.next;
    for (let seq = gap.next + Math.max(0, offset + out.length - pos); seq < endOf(gap.block) && out.length < limit; seq++) {
      out.push(rowOf(gap.block, seq, gap.block.state ?? 'pending', gap.block.createdAt));
    }
    pos += size;
    lower = keyOf(gap.block, endOf(gap.block));
  }
  return out;
}

/**
 * The job's link blocks a list of `filter` shows: pending blocks with URLs not yet claimed, each
 * with its first unclaimed number, and blocks of skipped links whole.
 */
async function unclaimed(db: Store, jobId: string, filter: 'all' | 'pending' | 'skipped'): Promise<Array<{ block: LinkBlockRecord; next: number }>> {
  const out: Array<{ block: LinkBlockRecord; next: number }> = [];
  let blockCache = blockCaches.get(db);
  if (!blockCache) blockCaches.set(db, (blockCache = new Map()));
  for (const seq of await blockSeqs(db, jobId)) {
    const id = `${jobId}\u0000${seq}`;
    let block = blockCache.get(id);
    if (!block) {
      block = await blockAt(db, jobId, seq);
      if (!block) continue;
      blockCache.set(id, block);
    }
    const skipped = block.state === 'skipped';
    if (filter !== 'all' && skipped !== (filter === 'skipped')) continue;
    if (skipped) {
      out.push({ block, next: block.seq });
      continue;
    }
    const claimed = await rowsNumbered(db, jobId, block.seq, endOf(block));
    if (block.seq + claimed < endOf(block)) out.push({ block, next: block.seq + claimed });
  }
  return out;
}
