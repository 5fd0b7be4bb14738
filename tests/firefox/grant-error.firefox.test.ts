import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../fixtures/server';
import { FIREFOX_BUILD, launchScoutFirefox, type ScoutFirefox } from './firefox';
import { click, waitForText } from './panel';

/**
 * When the browser refuses a grant, the panel says so in words and nothing goes unhandled.
 * Reproduced with the optional host patterns Scout's Firefox build declared before issue #18
 * (one for http, one for https): Firefox wants a single declared pattern covering each one
 * requested, so it rejects Scout's scheme-wildcard site patterns before any prompt.
 */
const HOST = 'docs.example.test';
let server: FixtureServer;
let ff: ScoutFirefox;
let broken: string;

beforeAll(async () => {
  broken = mkdtempSync(join(tmpdir(), 'scout-firefox-old-manifest-'));
  cpSync(FIREFOX_BUILD, broken, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(broken, 'manifest.json'), 'utf8')) as { optional_permissions: string[] };
  manifest.optional_permissions = ['http://*/*', 'https://*/*', 'notifications'];
  writeFileSync(join(broken, 'manifest.json'), JSON.stringify(manifest));
  server = await startFixtureServer({ [HOST]: { routes: { '/': { body: '<title>Docs</title>' } } } });
  ff = await launchScoutFirefox([HOST], broken);
});
afterAll(async () => {
  await ff?.close();
  await server?.close();
  rmSync(broken, { recursive: true, force: true });
});

it('a grant the browser refuses shows its reason on the card, with no unhandled rejection', async () => {
  const panel = await ff.openPanel(server.url(HOST, '/'));
  await click(panel, '[data-testid=host-access] button');
  const message = await waitForText(panel, '[data-testid=host-access-error]', /did not let Scout ask/);
  expect(message).toContain('Your browser did not let Scout ask for access to example.test');
  expect(message).toContain('not declared in the manifest');
  expect(await panel.$eval('[data-testid=host-access-state]', (e) => e.textContent)).toBe('Not yet allowed');
  // Give a stray rejection time to reach Firefox's console before looking.
  await new Promise((r) => setTimeout(r, 500));
  expect(ff.errors).toEqual([]);
});
