import { useLiveQuery } from 'dexie-react-hooks';
import { db, type ArtifactRecord } from '@/lib/db';

export interface OutputState {
  llms?: ArtifactRecord;
  full?: ArtifactRecord;
  loaded: boolean;
}

/** The newest generated llms.txt and llms-full.txt for a site, live. */
export function useOutput(origin: string): OutputState {
  const rows = useLiveQuery(async () => {
    const latest = async (kind: 'llms' | 'llms-full') =>
      (await db.artifacts.where('[origin+kind+version]').between([origin, kind, 0], [origin, kind, Infinity]).last()) ?? null;
    return { llms: await latest('llms'), full: await latest('llms-full') };
  }, [origin]);
  return { llms: rows?.llms ?? undefined, full: rows?.full ?? undefined, loaded: rows !== undefined };
}
