/** The memory bodies of ../artifacts.ts (same names, same answers). */
import type { ArtifactRecord } from '../db';
import { artifactVersionsNow } from './queries';
import { stored } from './site-rows';
import { copy, type MemoryStore } from './store';
import { piecesOf } from '../text-pieces';

const KINDS: ReadonlyArray<ArtifactRecord['kind']> = ['llms', 'llms-full', 'files'];

export async function addVersion(store: MemoryStore, origin: string, keep: number, make: (version: number) => ArtifactRecord[]): Promise<number> {
  const next = (artifactVersionsNow(store, origin, 'llms').at(-1)?.version ?? 0) + 1;
  const rows = make(next);
  for (const record of rows) {
    // The row is copied without its text, which goes in as it is, in its place among the keys: a
    // string cannot be changed, so sharing it is as safe as a copy, and a site's llms-full.txt
    // (tens of MB) is not cloned only to be spilled (store.ts) and dropped.
    const { text, ...rest } = record;
    const [id, row] = stored(store, 'artifacts', rest);
    const entries = Object.entries(row);
    entries.splice(Object.keys(record).indexOf('text'), 0, ['text', text]);
    store.artifacts.set(id, Object.fromEntries(entries) as unknown as ArtifactRecord, piecesOf(record));
  }
  for (const kind of KINDS) for (const old of artifactVersionsNow(store, origin, kind)) if (old.version >= 0 && old.version <= next - keep && old.id !== undefined) store.artifacts.delete(old.id);
  return next;
}

export async function versionsNewestFirst(store: MemoryStore, origin: string, kind: ArtifactRecord['kind']): Promise<ArtifactRecord[]> {
  return artifactVersionsNow(store, origin, kind).reverse().map(copy);
}
