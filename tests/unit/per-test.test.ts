import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { perTest } from '../fixtures/per-test';
import { loopbackFetch, type FixtureServer } from '../fixtures/server';

const HOST = 'docs.per-test.test';
const made = perTest('per-test');
const fetchFn = loopbackFetch();

// The second test checks what the first one left behind, so they run in this order.
describe('perTest', () => {
  let dbName = '';
  let server: FixtureServer | undefined;

  it('gives a test a database and a loopback server of its own', async () => {
    const db = made.db();
    await db.open();
    dbName = db.name;
    expect(await Dexie.exists(dbName)).toBe(true);
    server = await made.serve({ [HOST]: { routes: { '/': { body: 'hello' } } } });
    const res = await fetchFn(server.url(HOST, '/'));
    expect(await res.text()).toBe('hello');
  });

  it('after that test, its database is deleted and its server closed', async () => {
    expect(dbName).not.toBe('');
    expect(await Dexie.exists(dbName)).toBe(false);
    if (!server) throw new Error('the first test made no server');
    await expect(fetchFn(server.url(HOST, '/'))).rejects.toThrow();
  });
});
