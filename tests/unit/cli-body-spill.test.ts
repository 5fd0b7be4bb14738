import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * `scout generate` keeps the crawl's pages on disk, not in the heap (lib/store/memory/body-spill.ts),
 * in a folder of its own under the system's temporary folder, and removes it when the command ends:
 * done, or stopped with Ctrl-C. The site's last page is held back until the test has looked at the
 * temporary folder, so the crawl is caught in the middle with its other pages stored.
 */

const long = (word: string) => `<p>${Array.from({ length: 300 }, (_, i) => `${word} sentence ${i} of the page.`).join(' ')}</p>`;
const page = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

interface Site {
  server: Server;
  origin: string;
  /** Resolves when the held page was asked for. */
  asked: Promise<void>;
  /** Answers the held page. */
  release: () => void;
}

async function startSite(): Promise<Site> {
  let onAsked = () => {};
  const asked = new Promise<void>((resolve) => (onAsked = resolve));
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const send = (html: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    if (path === '/') return send(page('Home', `<nav><a href="/alpha.html">Alpha</a> <a href="/beta.html">Beta</a> <a href="/held.html">Held</a></nav>${long('Homeword')}`));
    if (path === '/alpha.html') return send(page('Alpha', long('Alphaword')));
    if (path === '/beta.html') return send(page('Beta', long('Betaword')));
    if (path === '/held.html') {
      onAsked();
      void released.then(() => send(page('Held', long('Heldword'))));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { server, origin: `http://127.0.0.1:${address.port}`, asked, release };
}

/** The store folders (scout-store-*) under `dir`, each with the text of its body file. */
async function storeFolders(dir: string): Promise<Array<{ name: string; text: string }>> {
  const names = (await readdir(dir)).filter((n) => n.startsWith('scout-store-'));
  return Promise.all(names.map(async (name) => ({ name, text: await readFile(join(dir, name, 'bodies'), 'utf8').catch(() => '') })));
}

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function startGenerate(): Promise<{ site: Site; tmp: string; out: string; child: ChildProcess; ended: Promise<{ code: number | null; signal: NodeJS.Signals | null }> }> {
  const site = await startSite();
  const tmp = await mkdtemp(join(tmpdir(), 'scout-spill-test-'));
  const out = join(tmp, 'out');
  cleanup.push(async () => {
    site.release();
    await new Promise((resolve) => site.server.close(resolve));
    await rm(tmp, { recursive: true, force: true });
  });
  // TMPDIR moves the system's temporary folder (os.tmpdir()) of the command alone.
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/scout.ts', 'generate', `${site.origin}/`, '--out', out, '--scope', 'host', '--json', '--quiet'], { cwd: process.cwd(), env: { ...process.env, TMPDIR: tmp }, stdio: ['ignore', 'pipe', 'pipe'] });
  cleanup.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  child.stdout?.resume();
  child.stderr?.resume();
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { site, tmp, out, child, ended };
}

describe('scout generate keeps its pages on disk while it runs', () => {
  it('holds the stored pages in its own temporary folder, removed when the command is done', async () => {
    const { site, tmp, out, ended } = await startGenerate();
    await site.asked;
    // The pages stored before the held one are in the store's body file, not only in the heap.
    const during = await until(() => storeFolders(tmp), (f) => f.some((s) => s.text.includes('Alphaword') && s.text.includes('Betaword')));
    expect(during).toHaveLength(1);
    expect(during[0]?.text).toContain('Alphaword sentence 299');
    expect(during[0]?.text).toContain('Betaword sentence 299');
    site.release();
    expect((await ended).code).toBe(0);
    expect(await storeFolders(tmp)).toEqual([]);
    // Read back from disk, the pages are whole in the files written.
    const full = await readFile(join(out, 'llms-full.txt'), 'utf8');
    for (const word of ['Homeword', 'Alphaword', 'Betaword', 'Heldword']) expect(full).toContain(`${word} sentence 299 of the page.`);
  }, 120_000);

  it('removes the folder when stopped with Ctrl-C, and ends as Ctrl-C ends it', async () => {
    const { site, tmp, child, ended } = await startGenerate();
    await site.asked;
    const during = await until(() => storeFolders(tmp), (f) => f.some((s) => s.text.includes('Alphaword')));
    expect(during.map((f) => f.text.includes('Alphaword'))).toEqual([true]);
    child.kill('SIGINT');
    expect(await ended).toEqual({ code: null, signal: 'SIGINT' });
    expect(await storeFolders(tmp)).toEqual([]);
  }, 120_000);
});
