import type { BrowserContext, Page } from '@playwright/test';
import { expect } from './fixtures';

/**
 * Stops the extension's service worker the way the browser does (CDP ServiceWorker.stopAllWorkers)
 * and proves it stopped: the DevTools protocol reports each run state of the worker.
 */
export async function workerStopper(context: BrowserContext, panel: Page, extensionId: string): Promise<{ stop(): Promise<void>; stops(): number }> {
  const cdp = await context.newCDPSession(panel);
  const states: string[] = [];
  cdp.on('ServiceWorker.workerVersionUpdated', (e: { versions: Array<{ scriptURL: string; runningStatus: string }> }) => {
    for (const v of e.versions) if (v.scriptURL.includes(extensionId)) states.push(v.runningStatus);
  });
  await cdp.send('ServiceWorker.enable');
  let stops = 0;
  return {
    async stop() {
      const mark = states.length;
      await cdp.send('ServiceWorker.stopAllWorkers');
      // A worker woken again at once (an event was waiting for it) may be reported starting without
      // its "stopped" in between; either proves the running one ended.
      await expect.poll(() => states.slice(mark).some((s) => s === 'stopped' || s === 'starting'), { timeout: 5000 }).toBe(true);
      stops++;
    },
    stops: () => stops,
  };
}
