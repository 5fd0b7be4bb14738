import { defineConfig } from 'wxt';
import { sourcePatchPlugin } from './scripts/source-patch';
import { SOURCE_PATCH_FILES, SOURCE_PATCHES } from './scripts/source-patches';

/**
 * SCOUT_E2E=1 builds a test-only variant into .output/<browser>-mv3-e2e.
 * Why: headless Chromium cannot answer `permissions.request()` (the prompt never
 * settles), so E2E tests need host access granted at install time. The shipped
 * manifest (plain `wxt build`) asks for host access per site, at the user's click.
 */
const e2e = process.env.SCOUT_E2E === '1';

/** SCOUT_PROFILE=1 keeps names readable (no minification) for bench/profile.ts's CPU profiles. */
const profile = process.env.SCOUT_PROFILE === '1';

/**
 * Firefox's add-on settings. strict_min_version 140: the first Firefox that shows an add-on's
 * data_collection_permissions at install (Firefox 127 and older refuse the key outright), and an
 * ESR, so ESR users are covered; nothing else Scout uses (MV2 sidebar_action, optional host
 * permissions, IndexedDB, alarms, the bundle’s 2022-era JavaScript) needs a newer one. Scout collects nothing: what it
 * fetches goes from the user's browser to the sites they open, and the optional LLM endpoint is their own.
 */
const GECKO = {
  id: 'llms-txt-scout@scout.example',
  strict_min_version: '140.0',
  data_collection_permissions: { required: ['none'] },
};

export default defineConfig({
  modules: ['@wxt-dev/module-react'],
  // import.meta.env.SCOUT_E2E: true in test and benchmark builds only (benchmark switches read it).
  vite: () => ({
    define: { 'import.meta.env.SCOUT_E2E': JSON.stringify(e2e) },
    plugins: SOURCE_PATCHES.map((p) => sourcePatchPlugin(`scout:${p.name}`, p.module, p.patch)),
    ...(profile ? { build: { minify: false } } : {}),
  }),
  outDirTemplate: e2e ? '{{browser}}-mv{{manifestVersion}}-e2e' : '{{browser}}-mv{{manifestVersion}}{{modeSuffix}}',
  manifest: ({ browser, manifestVersion }) => ({
    name: e2e ? 'llms.txt Scout (E2E build)' : 'llms.txt Scout',
    description:
      'See the llms.txt files a documentation site publishes, or generate them from a crawl with your own browser.',
    // sidePanel: the whole UI lives in Chrome's side panel (Firefox maps it to a sidebar).
    // activeTab: reading the current tab's address after the user clicks the toolbar button.
    // alarms: the watchdog that resumes a crawl after the browser stops the worker.
    // unlimitedStorage: a 10 000-page crawl stored as Markdown can outgrow the default quota.
    // declarativeNetRequest: block rules that stop Scout's own requests (never the user's browsing)
    //   from reaching the user's machine or network, even through a redirect the browser follows unseen.
    // offscreen: a hidden page where crawled HTML is parsed by the browser's own parser, off the worker's thread.
    // alarms also wakes the worker for scheduled refreshes.
    // storage: the description settings (with an optional API key) in extension storage on this device.
    // scripting: reading a client-rendered page's DOM from the background tab Scout rendered it in
    //   (lib/render/); it acts only on sites the user granted. Firefox MV2 has the same API and name.
    // Firefox (MV2) has DNR too and needs it as much: it also follows redirects unseen (measured in
    //   tests/firefox: without the rules, a redirect to 127.0.0.1 was requested).
    permissions: [...(browser === 'firefox' ? [] : ['sidePanel', 'offscreen']), 'declarativeNetRequest', 'activeTab', 'alarms', 'unlimitedStorage', 'storage', 'scripting', ...(e2e ? ['notifications'] : [])],
    // Host access is requested per site from the side panel, on the user's click.
    // MV2 (Firefox's default build) lists optional hosts among optional_permissions.
    // notifications: asked for only when the user turns on a scheduled refresh (its result is the notification).
    // Firefox wants ONE declared pattern covering each requested one: `http://*/*` plus `https://*/*`
    // don't cover the `*://example.com/*` that lib/url/site.ts asks for (it throws before any prompt);
    // `*://*/*` does. Chrome accepts the pair, which the README and permissions.spec.ts describe.
    ...(manifestVersion === 2
      ? { optional_permissions: ['*://*/*', 'notifications'] }
      : { optional_host_permissions: ['http://*/*', 'https://*/*'], optional_permissions: ['notifications'] }),
    ...(e2e ? { host_permissions: ['<all_urls>'] } : {}),
    action: { default_title: 'Open llms.txt Scout' },
    icons: { 16: 'icon/16.png', 32: 'icon/32.png', 48: 'icon/48.png', 96: 'icon/96.png', 128: 'icon/128.png' },
    ...(browser === 'firefox' ? { browser_specific_settings: { gecko: GECKO } } : {}),
  }),
  // `wxt zip -b firefox` also writes the sources zip addons.mozilla.org reviewers rebuild from:
  // only what the build reads (no tests, benchmarks or fixtures), built with `npm ci && npm run build:firefox`.
  zip: {
    includeSources: ['package.json', 'package-lock.json', 'tsconfig.json', 'wxt.config.ts', 'README.md', 'entrypoints/**', 'components/**', 'lib/**', 'public/**', ...SOURCE_PATCH_FILES],
  },
});
