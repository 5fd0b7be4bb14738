import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { extensionHost } from './chrome-scope';

/** Debian's Firefox ESR (Playwright's Firefox mode does not work with ESR 153; puppeteer over WebDriver BiDi does). */
export const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/** The shipped Firefox build (`npm run build:firefox`): optional host access only, granted through the panel's button. SCOUT_FIREFOX_BUILD points elsewhere (to check the test fails on a broken build). */
export const FIREFOX_BUILD = resolve(process.env.SCOUT_FIREFOX_BUILD ?? '.output/firefox-mv2');

export interface ScoutFirefox {
  browser: Browser;
  /** The add-on id (browser_specific_settings.gecko.id). */
  id: string;
  /** The extension's moz-extension:// host (a per-profile UUID, not the add-on id). */
  uuid: string;
  /** Where Firefox saves downloads (a temporary folder, removed by close()). */
  downloads: string;
  /** console.error lines and uncaught errors from extension pages and the background script. */
  errors: string[];
  /** Opens Scout's panel as a tab pinned to `pageUrl` and waits until it has rendered. */
  openPanel(pageUrl: string): Promise<Page>;
  close(): Promise<void>;
}

/** What Firefox prints on stdout for an error in extension code (with devtools.console.stdout.content). */
const ERROR_LINE = /^(console\.error|JavaScript error)/;
// Firefox's own chrome code logs through the same channel; only the extension's lines count.
const NOT_OURS = /chrome:\/\/|resource:\/\/|RSLoader/;

/**
 * Starts headless Firefox ESR with Scout installed as a temporary add-on.
 * `hosts` are resolved to 127.0.0.1 (Firefox has no wildcard: every fixture host is listed).
 */
export async function launchScoutFirefox(hosts: string[], extensionDir = FIREFOX_BUILD): Promise<ScoutFirefox> {
  if (!existsSync(join(extensionDir, 'manifest.json'))) throw new Error(`No Firefox build in ${extensionDir}: run "npm run build:firefox" first.`);
  if (!existsSync(FIREFOX)) throw new Error(`No Firefox at ${FIREFOX}: apt-get install firefox-esr (or set FIREFOX_PATH).`);
  const downloads = mkdtempSync(join(tmpdir(), 'scout-firefox-downloads-'));
  // Our own profile folder, removed by close() with the downloads: puppeteer's temporary one
  // (puppeteer_dev_firefox_profile-*) stays behind when a run ends without closing the browser.
  const profile = mkdtempSync(join(tmpdir(), 'scout-firefox-profile-'));
  // Never throws: a leftover folder must not fail the test that made it.
  const removeFolders = () => {
    for (const dir of [downloads, profile]) {
      try {
        rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
      } catch {
        // Firefox's last processes may still hold it.
      }
    }
  };
  const browser = await puppeteer.launch({
    browser: 'firefox',
    userDataDir: profile,
    executablePath: FIREFOX,
    headless: true,
    args: ['--remote-allow-system-access'], // else BiDi refuses to navigate to moz-extension:// pages
    extraPrefsFirefox: {
      'network.dns.localDomains': hosts.join(','),
      // permissions.request() resolves without showing the doorhanger, which headless Firefox can't answer.
      // It still runs Firefox's own checks first (declared pattern, user gesture): what this test is about.
      'extensions.webextOptionalPermissionPrompts': false,
      'devtools.console.stdout.content': true,
      'browser.download.folderList': 2,
      'browser.download.dir': downloads,
      'browser.download.useDownloadDir': true,
      'browser.download.always_ask_before_handling_new_types': false,
      'browser.download.alwaysOpenPanel': false,
      // .test hosts serve plain http.
      'dom.security.https_first': false,
      'dom.security.https_only_mode': false,
    },
  }).catch((error: unknown) => {
    removeFolders();
    throw error;
  });
  const errors: string[] = [];
  const proc = browser.process();
  for (const stream of [proc?.stdout, proc?.stderr]) {
    stream?.on('data', (chunk: Buffer) => errors.push(...String(chunk).split('\n').filter((l) => ERROR_LINE.test(l) && !NOT_OURS.test(l))));
  }
  try {
    const id = await browser.installExtension(extensionDir);
    const uuid = await extensionHost(browser, id);
    return {
      browser,
      id,
      uuid,
      downloads,
      errors,
      openPanel: async (pageUrl) => {
        const page = await browser.newPage();
        await page.setViewport({ width: 1280, height: 800 });
        // Firefox fires no load event for extension pages (bug 1755014): don't await goto, wait for the panel.
        page.goto(`moz-extension://${uuid}/sidepanel.html?url=${encodeURIComponent(pageUrl)}`).catch(() => undefined);
        const deadline = Date.now() + 15_000;
        for (;;) {
          try {
            await page.waitForFunction(() => location.protocol === 'moz-extension:' && document.querySelector('[data-testid=site-facts]') !== null, { timeout: Math.max(1, deadline - Date.now()) });
            return page;
          } catch (error) {
            // A look that lands while the tab is changing documents can fail inside Firefox's remote
            // agent ("right-hand side of 'in' should be an object, got null"; it failed CI once):
            // that is not the panel failing to open, so look again. A timeout is not retried.
            const why = `${error} ${(error as { cause?: unknown }).cause ?? ''}`;
            if (Date.now() >= deadline || !/Protocol error/.test(why)) throw error;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
      },
      close: async () => {
        await browser.close().catch(() => undefined);
        removeFolders();
      },
    };
  } catch (error) {
    await browser.close().catch(() => undefined);
    removeFolders();
    throw error;
  }
}
