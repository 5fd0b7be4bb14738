import { JobRegistry } from '@/lib/jobs/registry';
import { db, type ScoutDb } from '@/lib/store/db';
import { generateForSite, saveCuration } from '@/lib/generate/run-generate';
import { onCommand } from './on-command';
import { descriptionsBy } from '@/lib/describe/settings-item';
import { wiring, type JobWiring } from './jobs';

/** Where regenerations queue: the worker's registry once setUpGenerate has run (index.ts). */
let registry = new JobRegistry();

/**
 * Regenerates a site's outputs; one at a time per site (queued on the job registry), so rapid
 * curation clicks run in turn and the worker is kept up until the last. `store`: the crawl wiring's database.
 */
export function regenerate(origin: string, store: ScoutDb = db): Promise<{ version: number } | { error: string }> {
  return registry.queue({
    id: crypto.randomUUID(),
    kind: 'generate',
    key: `generate:${origin}`,
    run: async () => {
      try {
        const result = await generateForSite(store, origin, new Date(), { descriptionsBy: await descriptionsBy() });
        return result ? { version: result.version } : { error: 'Crawl the site first: there are no pages to build an llms.txt from.' };
      } catch (error) {
        return { error: `Could not generate the files: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  });
}

export function setUpGenerate(given: Partial<JobWiring> = {}): void {
  const { db, jobs } = wiring(given);
  registry = jobs;
  onCommand('generate', async (data) => {
    if (data.curation) await saveCuration(db, data.origin, data.curation);
    return regenerate(data.origin, db);
  });
}
