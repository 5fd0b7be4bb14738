/**
 * A site's generated outputs (`artifacts`): each generation adds one version of each kind (the
 * llms.txt, the llms-full.txt, the files to publish) and keeps only the newest few. Versions are
 * numbered per site from the llms.txt's, read and written in one transaction so two generations
 * never take the same number.
 */
import type { ArtifactRecord, ScoutDb } from './db';
import { artifactVersions, latestArtifact } from './queries';

type ArtifactKind = ArtifactRecord['kind'];
const KINDS: readonly ArtifactKind[] = ['llms', 'llms-full', 'files'];

/**
 * Adds the next version: `make` gets its number and answers the rows to add (no table handles);
 * versions of every kind older than the newest `keep` are deleted in the same transaction.
 * Answers the number given.
 */
export function addVersion(db: ScoutDb, origin: string, keep: number, make: (version: number) => ArtifactRecord[]): Promise<number> {
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
export function versionsNewestFirst(db: ScoutDb, origin: string, kind: ArtifactKind): Promise<ArtifactRecord[]> {
  return artifactVersions(db, origin, kind).reverse().toArray();
}
