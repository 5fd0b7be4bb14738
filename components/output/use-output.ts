import { useLiveQuery } from 'dexie-react-hooks';
import { db, type ArtifactRecord } from '@/lib/store/db';
import { latestArtifact } from '@/lib/store/queries';

export interface OutputState {
  llms?: ArtifactRecord;
  full?: ArtifactRecord;
  /** The files to publish (root llms.txt, nested files and their sizes) of the same version, when generated with them. */
  files?: ArtifactRecord;
  loaded: boolean;
}

/** The newest generated llms.txt, llms-full.txt and files to publish for a site, live. */
export function useOutput(origin: string): OutputState {
  const rows = useLiveQuery(async () => {
    const latest = async (kind: ArtifactRecord['kind']) => (await latestArtifact(db, origin, kind)) ?? null;
    const llms = await latest('llms');
    const files = await latest('files');
    return { llms, full: await latest('llms-full'), files: files && llms && files.version === llms.version ? files : null };
  }, [origin]);
  return { llms: rows?.llms ?? undefined, full: rows?.full ?? undefined, files: rows?.files ?? undefined, loaded: rows !== undefined };
}
