/**
 * Docs behind a login, handed to a coding agent: the user logs in to a fixture site in the
 * browser, crawls it with Scout, exports "Docs for agents" from the Output tab, and `scout mcp`
 * on the unzipped folder finds the page only a logged-in user can see. The "Use with your agent"
 * disclosure gives the configuration with the paths the user typed.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { strFromU8, unzipSync } from 'fflate';
import { writeFilesInside } from '@/lib/headless/write-out';
import { startFixtureServer, type FixtureSite } from '../fixtures/server';
import { expect, test } from './fixtures';
import { crawlToEnd } from './steps';

const PAGES: Array<[path: string, title: string, text: string]> = [
  ['/', 'Vault Docs', 'Vault stores the secrets of your services and hands them out to the programs that may read them.'],
  ['/guide/install.html', 'Install Vault', 'Install the vault agent on every host and point it at the cluster before you store any secret.'],
  ['/guide/policies.html', 'Access policies', 'A policy says which service may read which secret path, and for how long a token stays valid.'],
  ['/guide/key-rotation.html', 'Rotating the quasar keys', 'Rotate the quasar signing keys every ninety days: run vault rotate-quasar, then restart the agents one by one.'],
];

/** A docs site every page of which answers 401 without the session cookie the login sets. */
function privateDocs(): FixtureSite {
  const nav = `<nav class="sidebar"><ul>${PAGES.map(([path, title]) => `<li><a href="${path}">${title}</a></li>`).join('')}</ul></nav>`;
  const routes: FixtureSite['routes'] = {
    '/login': { status: 302, headers: { location: '/', 'set-cookie': 'session=ok; Path=/; HttpOnly; SameSite=Lax' } },
  };
  return {
    routes,
    fallback: (req) => {
      const page = PAGES.find(([path]) => path === req.path);
      if (!page) return null;
      if (!(req.headers.cookie ?? '').includes('session=ok')) return { status: 401, headers: { 'content-type': 'text/html' }, body: '<!doctype html><title>Log in</title><h1>Please log in</h1>' };
      const [, title, text] = page;
      return { headers: { 'content-type': 'text/html; charset=utf-8' }, body: `<!doctype html><html><head><title>${title} — Vault Docs</title></head><body>${nav}<main><h1>${title}</h1><p>${text}</p><h2>See also</h2><p>The other guides in the sidebar.</p></main></body></html>` };
    },
  };
}

test('docs behind a login, exported as Docs for agents, found by scout mcp', async ({ openPanel, context }) => {
  test.setTimeout(180_000);
  const site = await startFixtureServer({ 'vault.example.test': privateDocs() });
  const dir = await mkdtemp(join(tmpdir(), 'scout-agents-e2e-'));
  try {
    const login = await context.newPage();
    await login.goto(site.url('vault.example.test', '/login'));
    const panel = await openPanel(site.url('vault.example.test', '/'));
    await crawlToEnd(panel, { timeout: 30_000 });
    await panel.getByTestId('see-output').click();
    await expect(panel.getByTestId('output')).toBeVisible({ timeout: 15_000 });

    const [download] = await Promise.all([panel.waitForEvent('download'), panel.getByTestId('download-agents').click()]);
    expect(download.suggestedFilename()).toBe('vault.example.test-docs-for-agents.zip');
    await expect(panel.getByRole('status').filter({ hasText: 'Docs for agents saved' })).toContainText(`${PAGES.length} pages and manifest.json`);
    const files = unzipSync(new Uint8Array(await readFile((await download.path()) ?? '')));
    await writeFilesInside(dir, Object.entries(files).map(([relativePath, data]) => ({ relativePath, text: strFromU8(data) })));
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as { pages: Array<{ url: string; path: string }> };
    expect(manifest.pages.map((p) => new URL(p.url).pathname).sort()).toEqual(PAGES.map(([path]) => path).sort());

    // The agent's side: scout mcp on the unzipped folder, driven by the MCP SDK's client.
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', 'cli/scout.ts', 'mcp', dir], cwd: process.cwd(), stderr: 'pipe' }));
    try {
      const result = await client.callTool({ name: 'search_docs', arguments: { query: 'rotate quasar signing keys' } });
      expect(result.isError).not.toBe(true);
      const hits = (result.structuredContent as { results: Array<{ url: string; snippet: string }> }).results;
      expect(hits[0]?.url).toBe(site.url('vault.example.test', '/guide/key-rotation.html'));
      expect(hits[0]?.snippet).toContain('vault rotate-quasar');
      const page = await client.callTool({ name: 'read_page', arguments: { page: hits[0]?.url } });
      expect((page.content as Array<{ text: string }>)[0]?.text).toContain('restart the agents one by one');
    } finally {
      await client.close();
    }

    // "Use with your agent": the configuration with the user's two paths.
    await panel.getByTestId('agent-setup').locator('summary').click();
    await panel.getByTestId('agent-scout-folder').fill('/opt/llms-txt-scout');
    await panel.getByTestId('agent-docs-folder').fill(dir);
    await expect(panel.getByTestId('agent-config-claude')).toHaveText(`claude mcp add scout-vault-example-test -- node /opt/llms-txt-scout/cli/bin.mjs mcp ${dir}`);
    const vscode = JSON.parse(await panel.getByTestId('agent-config-vscode').innerText()) as { servers: Record<string, { type: string; command: string; args: string[] }> };
    expect(Object.values(vscode.servers)[0]).toEqual({ type: 'stdio', command: 'node', args: ['/opt/llms-txt-scout/cli/bin.mjs', 'mcp', dir] });
    await expect(panel.getByTestId('agent-config-cursor')).toContainText('"mcpServers"');
  } finally {
    await rm(dir, { recursive: true, force: true });
    await site.close();
  }
});
