/**
 * A page store with a fixed room, for E2E builds: writes of new pages past `room()` pages (all
 * sites together) are refused with QuotaExceededError, as a full disk refuses them, so the
 * storage-full pause and its way out can be tested in the real extension. A Dexie middleware on
 * the `pages` table, so it must be installed before the database opens.
 */
import type { DBCoreMutateRequest } from 'dexie';
import { wrapTable } from './table-middleware';
import * as memPageRoom from './memory/page-room';
import { inMemory, type Store } from './store';

/** Refuses new pages past `room()` (undefined: no limit), read at each write. */
export function limitPageRoom(store: Store, room: () => number | undefined): void {
  if (inMemory(store)) {
    memPageRoom.limitPageRoom(store, room);
    return;
  }
  const db = store;
  wrapTable(db, 'e2e-storage-room', 'pages', (table) => ({
    ...table,
    mutate: async (req: DBCoreMutateRequest) => {
      const limit = room();
      if ((req.type === 'add' || req.type === 'put') && limit !== undefined) {
        // DBCoreRangeType.Any (a const enum, so spelled as its value): every row.
        const held = await table.count({ trans: req.trans, query: { index: table.schema.primaryKey, range: { type: 3, lower: undefined, upper: undefined } } });
        // Only new pages take room: a put that rewrites a held page (token counts) does not.
        const keys = (req.values as Array<{ jobId: string; key: string }>).map((v) => [v.jobId, v.key]);
        const found = await table.getMany({ trans: req.trans, keys });
        const added = found.filter((row) => row === undefined).length;
        if (added > 0 && held + added > limit) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      }
      return table.mutate(req);
    },
  }));
}
