import { test as base, type BrowserContext, type Page, type Worker } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { startFixtureServer, type FixtureServer } from '../fixtures/server';
import { launchWithExtension } from './browser';

export const DEMO_DIR = fileURLToPath(new URL('../fixtures/sites/demo-docs/', import.meta.url));

interface Fixtures {
  context: BrowserContext;
  worker: Worker;
  extensionId: string;
  server: FixtureServer;
  /** Opens the side panel UI as a tab pinned to `pageUrl` (sidepanel.html?url=…). */
  openPanel: (pageUrl: string) => Promise<Page>;
}

/**
 * Each test gets a fresh browser profile with the E2E build loaded, and a fixture
 * server with the demo docs on docs.scout-demo.test. Tests that need other
 * sites start their own server with startFixtureServer().
 */
export const test = base.extend<Fixtures>({
  server: async ({}, use) => {
    const server = await startFixtureServer({ 'docs.scout-demo.test': { dir: DEMO_DIR } });
    await use(server);
    await server.close();
  },
  context: async ({}, use) => {
    const { context } = await launchWithExtension();
    await use(context);
    await context.close();
  },
  worker: async ({ context }, use) => {
    await use(context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker')));
  },
  extensionId: async ({ worker }, use) => {
    await use(new URL(worker.url()).host);
  },
  openPanel: async ({ context, extensionId }, use) => {
    await use(async (pageUrl) => {
      const page = await context.newPage();
      await page.goto(`chrome-extension://${extensionId}/sidepanel.html?url=${encodeURIComponent(pageUrl)}`);
      return page;
    });
  },
});

export { expect } from '@playwright/test';
