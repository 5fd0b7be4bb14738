import type { ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlSitemaps } from '@/lib/discovery/sitemap';
import { fetchText, FetchFailure } from '@/lib/fetch/fetch-text';
import { loopbackFetch, startFixtureServer, type FixtureServer, type Route } from '../fixtures/server';

// Discovery's files can be large (a sitemap may be 50 MB): time limits the waits, not the length
// of a body that keeps arriving. A wait longer than timeoutMs, or a body still arriving at maxMs,
// ends the read; what arrived by then is kept and the cut says so, as at a size cap.
const fetch = loopbackFetch();
const HOST = 'docs.example.test';

/** Writes `pieces` one every `gapMs` (the first at once), then ends unless `stall`. */
const paced = (pieces: Array<string | Buffer>, gapMs: number, opts: { type?: string; stall?: boolean } = {}): Route => ({
  raw: (res: ServerResponse) => {
    res.writeHead(200, { 'content-type': opts.type ?? 'text/plain; charset=utf-8' });
    let i = 0;
    const next = () => {
      if (res.destroyed) return;
      if (i === pieces.length) return void (opts.stall ? undefined : res.end());
      res.write(pieces[i++]);
      setTimeout(next, gapMs);
    };
    next();
    res.on('close', () => (i = pieces.length));
  },
});

const urlset = (n: number) => `<?xml version="1.0"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${Array.from({ length: n }, (_, i) => `<url><loc>https://${HOST}/p${i}</loc></url>\n`).join('')}</urlset>\n`;
const split = (text: string, n: number) => Array.from({ length: n }, (_, i) => text.slice(Math.floor((i * text.length) / n), Math.floor(((i + 1) * text.length) / n)));
const gz = gzipSync(Buffer.from('# Packed\n\n' + 'line\n'.repeat(20_000)));

let server: FixtureServer;
beforeAll(async () => {
  const slowMap = urlset(40);
  server = await startFixtureServer({
    [HOST]: {
      routes: {
        // Eight pieces 100 ms apart: 700 ms in all, each wait under the 250 ms limit.
        '/long.txt': paced(split('# Long\n\n' + 'text\n'.repeat(2_000), 8), 100),
        '/sitemap.xml': paced(split(slowMap, 8), 100, { type: 'application/xml' }),
        // Half the text, then nothing more on an open connection.
        '/stalls.txt': paced(['# Stalls\n\nfirst half\n'], 0, { stall: true }),
        '/stalls.xml': paced([slowMap.slice(0, slowMap.indexOf('/p20<')), ''], 0, { type: 'application/xml', stall: true }),
        '/stalls.txt.gz': paced([gz.subarray(0, gz.length >> 1)], 0, { type: 'application/gzip', stall: true }),
        // A piece every 100 ms for ever: under the wait limit, past the whole-body limit.
        '/trickle.txt': paced(['# Trickle\n\n', ...Array.from({ length: 200 }, () => 'drop\n')], 100),
        '/silent.txt': { delayMs: 600, body: 'late\n' },
      },
    },
  });
});
afterAll(() => server.close());

const failureOf = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => (error instanceof FetchFailure ? error.reason : String(error)));

describe('fetchText time limits', () => {
  it('reads a body that keeps arriving for longer than the wait limit, whole', async () => {
    const res = await fetchText(server.url(HOST, '/long.txt'), { fetch, timeoutMs: 250 });
    expect(res.ms).toBeGreaterThan(500);
    expect(res).toMatchObject({ truncated: false, text: '# Long\n\n' + 'text\n'.repeat(2_000) });
    expect(res.cutByTime).toBeUndefined();
  });

  it('keeps what arrived before a stall, and says the cut was time', async () => {
    const res = await fetchText(server.url(HOST, '/stalls.txt'), { fetch, timeoutMs: 250 });
    expect(res).toMatchObject({ text: '# Stalls\n\nfirst half\n', truncated: true, cutByTime: true, cut: 'The server stopped sending for 0.25 s: only the first 21 B were read' });
  });

  it('keeps what a stalled .gz file unpacked to', async () => {
    const res = await fetchText(server.url(HOST, '/stalls.txt.gz'), { fetch, timeoutMs: 250 });
    expect(res.truncated).toBe(true);
    expect(res.cutByTime).toBe(true);
    expect(res.text.startsWith('# Packed\n\nline\n')).toBe(true);
    expect(res.cut).toMatch(/^The server stopped sending for 0\.25 s: only the first [\d.]+ [KM]?B were read$/);
  });

  it('ends a body still arriving at the whole-body limit, keeping what came', async () => {
    const res = await fetchText(server.url(HOST, '/trickle.txt'), { fetch, timeoutMs: 250, maxMs: 700 });
    expect(res).toMatchObject({ truncated: true, cutByTime: true });
    expect(res.cut).toMatch(/^Still arriving after 0\.7 s: only the first \d+ B were read$/);
    expect(res.text.startsWith('# Trickle\n\ndrop\n')).toBe(true);
    expect(res.ms).toBeLessThan(2_000);
  });

  it('fails a server that sends no answer within the wait limit', async () => {
    expect(await failureOf(fetchText(server.url(HOST, '/silent.txt'), { fetch, timeoutMs: 250 }))).toBe('No answer within 0.25 s');
  });
});

describe('sitemaps in time', () => {
  it('reads a sitemap arriving slowly in full, and keeps the entries of one that stalls', async () => {
    const result = await crawlSitemaps([server.url(HOST, '/sitemap.xml'), server.url(HOST, '/stalls.xml')], { fetch, timeoutMs: 250 });
    const [whole, stalled] = result.files;
    expect(whole).toMatchObject({ status: 'found', kind: 'urlset' });
    expect(whole?.urls).toHaveLength(40);
    expect(stalled).toMatchObject({ status: 'found', kind: 'urlset' });
    expect(stalled?.urls).toHaveLength(20);
    expect(stalled?.reason).toMatch(/^The server stopped sending for 0\.25 s/);
  });
});
