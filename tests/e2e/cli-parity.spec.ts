import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { matrixSites } from '../fixtures/matrix';
import { startFixtureServer } from '../fixtures/server';
import { readStore } from './extension-db';
import { expect, test } from './fixtures';
import { crawlToEnd } from './steps';

/** The folder a matrix site is built in (.cache/matrix/matrix.json's `root`). */
function matrixFolder(id: string): string {
  const { sites } = JSON.parse(readFileSync('.cache/matrix/matrix.json', 'utf8')) as { sites: Array<{ id: string; root: string }> };
  const entry = sites.find((s) => s.id === id);
  if (!entry) throw new Error(`No matrix site ${id}: run bash scripts/build-matrix.sh`);
  return entry.root;
}

/**
 * What a site owner's CI writes (`scout generate <built folder>`) is what the extension makes of
 * the same site served over HTTP, crawled in Chromium (the offscreen document's parser and the
 * conversion workers) with the same default settings: the same llms.txt, byte for byte.
 */
test('scout generate on a built folder writes the llms.txt the extension generates from the served site', async ({ openPanel }) => {
  test.setTimeout(180_000);
  const site = matrixSites(['requests'])[0];
  if (!site) throw new Error('no requests site in the matrix');
  const server = await startFixtureServer({ [site.host]: site.site() });
  const out = mkdtempSync(join(tmpdir(), 'scout-cli-parity-'));
  try {
    const base = server.url(site.host, '/');
    const panel = await openPanel(base);
    await crawlToEnd(panel, { timeout: 120_000 });
    await expect.poll(async () => (await readStore<{ kind: string }>(panel, 'artifacts')).some((a) => a.kind === 'llms'), { timeout: 30_000 }).toBe(true);
    const fromExtension = (await readStore<{ kind: string; version: number; text: string }>(panel, 'artifacts')).filter((a) => a.kind === 'llms').sort((a, b) => b.version - a.version)[0]?.text ?? '';

    const run = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(process.execPath, ['--import', 'tsx', 'cli/scout.ts', 'generate', matrixFolder('requests'), '--base-url', base, '--out', out, '--quiet'], { maxBuffer: 64 * 1024 * 1024 }, (error, _stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stderr }),
      );
    });
    expect(run.code, run.stderr).toBe(0);
    const fromCli = readFileSync(join(out, 'llms.txt'), 'utf8');
    expect(fromExtension.match(/^- \[/gm)?.length ?? 0).toBeGreaterThanOrEqual(20);
    expect(fromCli).toBe(fromExtension);
  } finally {
    rmSync(out, { recursive: true, force: true });
    await server.close();
  }
});
