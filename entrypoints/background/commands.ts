import { db } from '@/lib/store/db';
import { onCommand } from './on-command';
import { recordSiteOpened } from '@/lib/sites';

/** Wires side panel commands to lib/ functions. Each handler returns quickly. */
export function setUpCommands(): void {
  onCommand('ping', () => ({ version: browser.runtime.getManifest().version }));
  onCommand('openSite', async (data) => {
    const site = await recordSiteOpened(db, data.url);
    return { origin: site.origin };
  });
}
