import { chromium, type BrowserContext, type Worker } from '@playwright/test';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** Debian's Chromium: Playwright's own browser download cannot work on this network. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const E2E_BUILD = resolve('.output/chrome-mv3-e2e');
export const PROD_BUILD = resolve('.output/chrome-mv3');

/**
 * Every *.test name (RFC 2606 reserves .test) goes to loopback, where fixture
 * servers answer by Host header: subdomain and cross-site rules meet real, distinct hosts.
 */
// *.local too: the intranet-start test needs a private name that really reaches the fixture server.
export const HOST_RULES = 'MAP *.test 127.0.0.1, MAP *.local 127.0.0.1';

export interface LaunchOptions {
  extensionDir?: string;
  headless?: boolean;
  /** A profile the caller keeps (and removes); by default a fresh one is made and removed when the context closes. */
  userDataDir?: string;
  /** More Chromium switches (a benchmark's tracing, say), after the ones every launch has. */
  args?: string[];
}

/** Profiles made here and not yet removed: a run that exits without closing its contexts still removes them. */
const temporaryProfiles = new Set<string>();
process.once('exit', () => {
  for (const dir of temporaryProfiles) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // A browser still running at exit may hold it; nothing more can be done then.
    }
  }
});

/**
 * Removes a profile once Chromium is done with it. Never throws: a leftover folder must not fail
 * the test or benchmark that made it. Retries while Chromium's last processes still write in it.
 */
async function removeProfile(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }).catch(() => undefined);
  temporaryProfiles.delete(dir);
}

/** Launches Chromium with the extension loaded and returns it with its service worker and id. */
export async function launchWithExtension(options: LaunchOptions = {}): Promise<{ context: BrowserContext; worker: Worker; extensionId: string }> {
  const extensionDir = options.extensionDir ?? E2E_BUILD;
  if (!existsSync(join(extensionDir, 'manifest.json'))) {
    throw new Error(`No built extension in ${extensionDir}. Run "npm run build:e2e" (or "npm run build") first.`);
  }
  // A profile is up to 95 MB: one left per test filled /tmp (26 after one npm test).
  const profile = options.userDataDir ?? mkdtempSync(join(tmpdir(), 'scout-e2e-'));
  if (!options.userDataDir) temporaryProfiles.add(profile);
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: options.headless ?? true,
    args: [
      `--disable-extensions-except=${extensionDir}`,
      `--load-extension=${extensionDir}`,
      `--host-resolver-rules=${HOST_RULES}`,
      // This machine has no outside network; these stop Chromium from trying.
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // .test hosts serve plain http; don't let Chromium try https first.
      '--disable-features=HttpsUpgrades,HttpsFirstBalancedModeAutoEnable',
      ...(options.args ?? []),
    ],
  }).catch(async (error: unknown) => {
    if (!options.userDataDir) await removeProfile(profile);
    throw error;
  });
  if (!options.userDataDir) removeWhenClosed(context, profile);
  // Chromium silently skips an extension it cannot load (a missing icon is enough), so fail fast and say so.
  const worker =
    context.serviceWorkers()[0] ??
    (await context.waitForEvent('serviceworker', { timeout: 15_000 }).catch(async () => {
      await context.close();
      throw new Error(`Chromium did not start the extension's service worker from ${extensionDir}: open chrome://extensions in a headed run to see why.`);
    }));
  const extensionId = new URL(worker.url()).host;
  return { context, worker, extensionId };
}

/**
 * The profile goes when the context closes. close() resolves once Chromium has exited, so it
 * removes the profile before returning; the 'close' event covers a browser that went away by
 * itself, and comes before Chromium has finished writing, hence the wait there.
 */
function removeWhenClosed(context: BrowserContext, profile: string): void {
  const close = context.close.bind(context);
  context.close = async (options) => {
    await close(options);
    await removeProfile(profile);
  };
  context.once('close', () => {
    setTimeout(() => void removeProfile(profile), 1000).unref();
  });
}
