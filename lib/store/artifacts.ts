/**
 * A site's generated outputs (`artifacts`): each generation adds one version of each kind (the
 * llms.txt, the llms-full.txt, the files to publish) and keeps only the newest few. Versions are
 * numbered per site from the llms.txt's, read and written in one transaction so two generations
 * never take the same number.
 */
import type { ArtifactRecord } from './db';
import * as memArtifacts from './memory/artifacts';
import { inMemory, type Store } from './store';
import { artifactVersions, latestArtifact } from './queries';

type ArtifactKind = ArtifactRecord['kind'];
const KINDS: readonly ArtifactKind[] = ['llms', 'llms-full', 'files'];

/**
 * Adds the next version: `make` gets its number and answers the rows to add (no table handles);
 * versions of every kind older than the newest `keep` are deleted in the same transaction.
 * Answers the number given.
 */
export function addVersion(store: Store, origin: string, keep: number, make: (version: number) => ArtifactRecord[]): Promise<number> {
  if (inMemory(store)) return memArtifacts.addVersion(store, origin, keep, make);
  const db = store;
  return db.transaction('rw', db.artifacts, async () => {
    const latest = await latestArtifact(db, origin, 'llms');
    const next = (latest?.version ?? 0) + 1;
    await db.artifacts.bulkAdd(make(next));
    for (const kind of KINDS) {
      const old = await db.artifacts.where('[origin+kind+version]').between([origin, kind, 0], [origin, kind, next - keep], true, true).primaryKeys();
      await db.artifacts.bulkDelete(old);
    }
    return next;
  });
}

/** A site's versions of one output, newest first (the History view's list). */
export function versionsNewestFirst(store: Store, origin: string, kind: ArtifactKind): Promise<ArtifactRecord[]> {
  if (inMemory(store)) return memArtifacts.versionsNewestFirst(store, origin, kind);
  const db = store;
  return artifactVersions(db, origin, kind).reverse().toArray();
}
