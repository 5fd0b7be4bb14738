import type Dexie from 'dexie';
import type { DBCoreTable } from 'dexie';

/**
 * Puts `wrap` around one table's low-level operations (every table's with '*'), through a Dexie
 * DBCore middleware named `name`: how the E2E build makes a full disk and how tests watch, delay or
 * refuse a table's reads and writes. Dexie builds its middleware stack when the database opens, so
 * this must run before it opens.
 */
export function wrapTable(db: Dexie, name: string, table: string, wrap: (down: DBCoreTable) => DBCoreTable): void {
  db.use({
    stack: 'dbcore',
    name,
    create: (down) => ({
      ...down,
      table: (tableName) => {
        const t = down.table(tableName);
        return table === '*' || tableName === table ? wrap(t) : t;
      },
    }),
  });
}
