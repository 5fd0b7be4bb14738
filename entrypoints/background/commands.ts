import { onCommand } from './on-command';
import { recordSiteOpened } from '@/lib/sites';
import { wiring, type JobWiring } from './jobs';

/** Wires side panel commands to lib/ functions. Each handler returns quickly. */
export function setUpCommands(given: Partial<JobWiring> = {}): void {
  const { db, browser } = wiring(given);
  onCommand('ping', () => ({ version: browser.runtime.getManifest().version }));
  onCommand('openSite', async (data) => {
    const site = await recordSiteOpened(db, data.url);
    return { origin: site.origin };
  });
}
