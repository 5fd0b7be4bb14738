/**
 * `npm start`: builds Scout, serves the bundled demo docs site on loopback as
 * docs.scout-demo.test, and opens Chromium with the extension loaded on it.
 * Headed when a display exists; otherwise it runs headless, saves a screenshot
 * of the side panel and says how to get a window.
 */
import { execSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startFixtureServer } from '../tests/fixtures/server';
import { E2E_BUILD, launchWithExtension, PROD_BUILD } from '../tests/e2e/browser';

const headed = Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY) && !process.argv.includes('--headless');
// Headless Chromium cannot show the "allow access" prompt, so the headless demo uses the
// build with host access granted at install time. A headed run uses the shipped build.
const extensionDir = headed ? PROD_BUILD : E2E_BUILD;

console.log(`Building the extension (${headed ? 'shipped build' : 'headless demo build'})…`);
execSync('npx wxt build', {
  stdio: 'inherit',
  env: { ...process.env, ...(headed ? {} : { SCOUT_E2E: '1' }) },
});

const demoDir = fileURLToPath(new URL('../tests/fixtures/sites/demo-docs/', import.meta.url));
const server = await startFixtureServer({ 'docs.scout-demo.test': { dir: demoDir } });
const demoUrl = server.url('docs.scout-demo.test', '/guide/quickstart.html');
console.log(`Demo docs site: ${demoUrl}`);

const { context, extensionId } = await launchWithExtension({ extensionDir, headless: !headed });
const site = context.pages()[0] ?? (await context.newPage());
await site.goto(demoUrl);
const panel = await context.newPage();
await panel.goto(`chrome-extension://${extensionId}/sidepanel.html?url=${encodeURIComponent(demoUrl)}`);

if (headed) {
  console.log(
    [
      'Chromium is open with llms.txt Scout loaded.',
      '• The second tab is Scout’s panel opened as a tab for the demo site.',
      '• Or go to the demo tab and click the Scout icon (in the puzzle-piece menu; pin it) to open the side panel.',
      'Close the browser window or press Ctrl+C to stop.',
    ].join('\n'),
  );
  await new Promise<void>((resolve) => {
    context.on('close', () => resolve());
    process.on('SIGINT', () => resolve());
  });
} else {
  await panel.setViewportSize({ width: 400, height: 720 });
  await panel.waitForTimeout(1500);
  mkdirSync('screenshots', { recursive: true });
  await panel.screenshot({ path: 'screenshots/start.png' });
  console.log(
    [
      'No display found (DISPLAY is not set), so Chromium ran headless.',
      'A screenshot of Scout’s panel on the demo site is in screenshots/start.png.',
      'For a real window, run this on a desktop, or under a virtual display: xvfb-run npm start',
    ].join('\n'),
  );
}
await context.close().catch(() => undefined);
await server.close();
