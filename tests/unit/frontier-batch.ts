import type { Frontier } from '@/lib/crawl/frontier';
import type { NewEntry } from '@/lib/store/db';

/** What the page writer does per batch: addNew in one transaction, then remember once it committed. */
export async function addBatch(f: Frontier, entries: NewEntry[]) {
  const table = f.tables[0];
  if (!table) throw new Error('The frontier names no tables to write');
  const added = await table.db.transaction('rw', f.tables, () => f.addNew(entries));
  f.remember(added);
  return added;
}
