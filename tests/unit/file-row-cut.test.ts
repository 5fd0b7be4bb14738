import type { ServerResponse } from 'node:http';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FileRow } from '@/components/discovery/file-row';
import { discover } from '@/lib/discovery/discover';
import type { DiscoveredFileRecord } from '@/lib/store/db';
import type { DiscoveryResult } from '@/lib/discovery/types';
import { loopbackFetch, startFixtureServer, type FixtureServer } from '../fixtures/server';

// A discovered file cut short says which limit cut it, from discovery's result to the row the
// panel shows: a server that stops sending is not the same fault as a file over the size cap.
const HOST = 'docs.example.test';
const fetch = loopbackFetch();
let server: FixtureServer;
const BIG = Buffer.from(`# Big\n\n${'word '.repeat(2_300_000)}\n`);

beforeAll(async () => {
  server = await startFixtureServer({
    [HOST]: {
      routes: {
        '/': { body: '<!doctype html><title>Docs</title><h1>Docs</h1>', headers: { 'content-type': 'text/html' } },
        // Half an llms.txt, then silence with the connection held open.
        '/llms.txt': {
          raw: (res: ServerResponse) => {
            res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
            res.write('# Stalled\n\n> Half a file.\n\n## Docs\n\n- [Start](/start): first\n');
          },
        },
        // Over the 10 MiB cap for llms files, sent at once.
        '/llms-full.txt': { body: BIG, headers: { 'content-type': 'text/plain' } },
      },
    },
  });
});
afterAll(async () => server?.close());

function rowHtml(result: DiscoveryResult): string {
  const row: DiscoveredFileRecord = { ...result, origin: server.origin(HOST), jobId: 'j', fetchedAt: 0 };
  return renderToStaticMarkup(createElement(FileRow, { node: { row, children: [] }, origin: row.origin, openUrl: null, onToggle: () => undefined }));
}

it('says "time limit" for a stalled file and "size limit" for one over the cap', async () => {
  const summary = await discover({ pageUrl: server.url(HOST, '/'), fetch, timeoutMs: 1000, followDepth: 0 });
  const stalled = summary.results.find((r) => r.url === server.url(HOST, '/llms.txt'));
  const big = summary.results.find((r) => r.url === server.url(HOST, '/llms-full.txt'));
  expect(stalled).toMatchObject({ status: 'found', truncated: true, cutByTime: true });
  expect(big, big?.reason).toMatchObject({ status: 'found', truncated: true });
  expect(big?.cutByTime).toBeUndefined();

  const stalledRow = rowHtml(stalled as DiscoveryResult);
  expect(stalledRow).toContain('cut at the time limit');
  expect(stalledRow).not.toContain('size limit');
  expect(stalledRow).toContain('The server stopped sending for 1 s');
  const bigRow = rowHtml(big as DiscoveryResult);
  expect(bigRow).toContain('cut at the size limit');
  expect(bigRow).not.toContain('time limit');
});
