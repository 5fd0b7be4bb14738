import { db } from '@/lib/db';
import { onMessage } from '@/lib/messaging';
import { recordSiteOpened } from '@/lib/sites';

/** Wires side panel commands to lib/ functions. Each handler returns quickly. */
export function setUpCommands(): void {
  onMessage('ping', () => ({ version: browser.runtime.getManifest().version }));
  onMessage('openSite', async ({ data }) => {
    const site = await recordSiteOpened(db, data.url);
    return { origin: site.origin };
  });
}
