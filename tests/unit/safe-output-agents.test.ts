/**
 * `scout generate --for-agents` writes the docs folder's page files as well as the llms.txt layout:
 * their names come from the site's folders too. Against a real server on loopback whose folders are
 * named to escape (`..%5C..%5Cevil`, `C%3A%5CUsers`, `CON`, `trailing.`, `pipe%7Cstar*`…), every
 * name written must be safe on every system, and nothing may land outside --out.
 */
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostilePagePaths, hostilePathsSite } from '../fixtures/hostile-paths-site';
import { startFixtureServer, type FixtureServer } from '../fixtures/server';
import { scout } from './run-scout';
import { unsafe } from './unsafe-path';


let server: FixtureServer;
let tmp: string;
beforeAll(async () => {
  server = await startFixtureServer({ '127.0.0.1': hostilePathsSite() });
  tmp = await mkdtemp(join(tmpdir(), 'scout-agents-out-'));
});
afterAll(async () => {
  await server?.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('scout generate --for-agents on a site with hostile folder names', { timeout: 120_000 }, () => {
  it('writes every page under a safe name inside --out, and the manifest names the files written', async () => {
    const out = join(tmp, 'out');
    await mkdir(out);
    const run = await scout('generate', `http://127.0.0.1:${server.port}/`, '--out', out, '--for-agents', '--date', '2026-01-31', '--json', '--quiet');
    expect(run.stderr).not.toMatch(/TypeError|ENAMETOOLONG|ERR_INVALID_ARG_VALUE/);
    const report = JSON.parse(run.stdout) as { agents?: { pages: number } };
    const written = (await readdir(out, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => relative(out, join(e.parentPath, e.name)));
    expect(written.map((path) => ({ path, why: unsafe(path) })).filter((p) => p.why !== null)).toEqual([]);
    // Nothing beside --out: the temporary folder holds only it.
    expect(await readdir(tmp)).toEqual(['out']);
    // Every page of the site is in the folder, each file the manifest names is there.
    const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8')) as { pages: Array<{ path: string; url: string }> };
    expect(report.agents?.pages).toBe(manifest.pages.length);
    expect(manifest.pages.length).toBe(hostilePagePaths().length);
    for (const page of manifest.pages) expect(written).toContain(page.path);
    expect(new Set(manifest.pages.map((p) => p.path.toLowerCase())).size).toBe(manifest.pages.length);
  });
});
