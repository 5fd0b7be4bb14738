import { db, type ScoutDb } from '@/lib/store/db';
import { generateForSite, saveCuration } from '@/lib/generate/run-generate';
import { onCommand } from './on-command';
import { descriptionsBy } from '@/lib/describe/settings-item';

/** Each site's latest regeneration: the next one waits for it. */
const queues = new Map<string, Promise<unknown>>();

/** Regenerates a site's outputs; one at a time per site, so rapid curation clicks queue up. `store`: the crawl wiring's database. */
export function regenerate(origin: string, store: ScoutDb = db): Promise<{ version: number } | { error: string }> {
  const run = (queues.get(origin) ?? Promise.resolve()).then(async () => {
    try {
      const result = await generateForSite(store, origin, new Date(), { descriptionsBy: await descriptionsBy() });
      return result ? { version: result.version } : { error: 'Crawl the site first: there are no pages to build an llms.txt from.' };
    } catch (error) {
      return { error: `Could not generate the files: ${error instanceof Error ? error.message : String(error)}` };
    }
  });
  queues.set(origin, run);
  return run;
}

export function setUpGenerate(): void {
  onCommand('generate', async (data) => {
    if (data.curation) await saveCuration(db, data.origin, data.curation);
    return regenerate(data.origin);
  });
}
