/**
 * One network guard for every command (issue #28, item 4): `scout generate`, `check` and `lint`
 * from a public-looking start site never request the user's machine or network, whichever path
 * tries — robots.txt, docsify's README and sidebar, the llms.txt link check, a linted URL's
 * redirect, a public name that resolves to loopback. The commands run in-process with a
 * transport under their guard that resolves *.test to the fixture servers and records every
 * URL asked of it; the sink, a second server on 127.0.0.1, answers anything with a secret and
 * must see no request.
 */
import 'fake-indexeddb/auto';
import type { LookupAddress } from 'node:dns';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../cli/check';
import { type Io, UsageError } from '../../cli/common';
import { resolvingFetch } from '../../cli/fetch';
import { runGenerate } from '../../cli/generate';
import { runLint } from '../../cli/lint';
import { createDb } from '@/lib/store/db';
import { checkSite } from '@/lib/headless/check';
import { crawlSite } from '@/lib/headless/crawl-site';
import { hostileNetworkSites, SINK_SECRET, sinkSite } from '../fixtures/hostile-network-site';
import { startFixtureServer, type FixtureServer } from '../fixtures/server';

let site: FixtureServer;
let sink: FixtureServer;
let tmp: string;
/** Every URL the transport was asked for: what reached the network layer under the guard. */
let asked: string[] = [];

beforeAll(async () => {
  let port = 0;
  let sinkPort = 0;
  site = await startFixtureServer(hostileNetworkSites(() => port, () => sinkPort));
  port = site.port;
  sink = await startFixtureServer({ '127.0.0.1': sinkSite(), localhost: sinkSite(), 'intranet.hostile.test': sinkSite() });
  sinkPort = sink.port;
  tmp = await mkdtemp(join(tmpdir(), 'scout-guard-'));
});
afterAll(async () => {
  await site.close();
  await sink.close();
  await rm(tmp, { recursive: true, force: true });
});
afterEach(() => {
  asked = [];
  sink.requests.length = 0;
});

/** *.test and localhost resolve to 127.0.0.1 (each URL carries its server's port); addresses as written connect as written. */
function testLookup(hostname: string, options: { all?: boolean }, callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void): void {
  if (!hostname.endsWith('.test') && hostname !== 'localhost') callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
  else if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
}

const PRIVATE_SPACE = /^(10|172\.(1[6-9]|2\d|3[01])|192\.168|169\.254)\./;

/**
 * The test's network: records the URL, then connects *.test and loopback as above. The private
 * ranges are not connected (this machine may sit on one): asking for one is the failure, and
 * `asked` shows it.
 */
function recordingTransport(): typeof fetch {
  const dispatcher = new Agent({ connect: { lookup: testLookup as never } });
  return (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    asked.push(url);
    if (PRIVATE_SPACE.test(new URL(url).hostname)) return Promise.reject(new TypeError('fetch failed', { cause: new Error('test network: a private address') }));
    return fetch(input, { ...init, dispatcher } as RequestInit);
  };
}

function quietIo(): Io & { lines: string[] } {
  const lines: string[] = [];
  return { lines, out: (line) => lines.push(line), progress: () => undefined };
}

const reachedUserNetwork = () => asked.filter((u) => { const h = new URL(u).hostname; return h === '127.0.0.1' || h === 'localhost' || h === 'intranet.hostile.test' || PRIVATE_SPACE.test(h); });

async function filesIn(dir: string): Promise<string[]> {
  const names = await readdir(dir, { recursive: true }).catch(() => []);
  return Promise.all(names.filter((n) => n.endsWith('.txt')).map((n) => readFile(join(dir, n), 'utf8').catch(() => '')));
}

describe('scout generate from a public site', { timeout: 60_000 }, () => {
  it('a docsify README that redirects to loopback is skipped with the reason; nothing reaches the sink or the files', async () => {
    const out = join(tmp, 'readme');
    const io = quietIo();
    const code = await runGenerate({ input: site.url('readme.hostile.test', '/'), out, cleanUrls: false, settings: {}, output: {}, json: true }, io, recordingTransport());
    const report = JSON.parse(io.lines.join('\n')) as { skippedReasons?: Array<{ reason: string }> };
    expect(code).toBe(1); // the only page is refused: nothing to generate
    expect(report.skippedReasons?.map((s) => s.reason)).toContainEqual(expect.stringMatching(/README\.md: .*A loopback address \(this computer\) \(127\.0\.0\.1\): Scout never fetches these from a public site/));
    expect(sink.requests).toEqual([]);
    expect(reachedUserNetwork()).toEqual([]);
    for (const text of await filesIn(out)) expect(text).not.toContain(SINK_SECRET);
  });

  it('a docsify sidebar redirected to 10.0.0.1 and robots.txt redirected to loopback are not followed; the site is still generated', async () => {
    const out = join(tmp, 'wiki');
    const io = quietIo();
    const code = await runGenerate({ input: site.url('wiki.hostile.test', '/'), out, cleanUrls: false, settings: {}, output: {}, json: true }, io, recordingTransport());
    expect(code, io.lines.join('\n')).toBe(0);
    const files = await filesIn(out);
    expect(files.join('\n')).toContain('# Wiki');
    for (const text of files) expect(text).not.toContain(SINK_SECRET);
    // The hops were asked of the guard, and refused there: the transport never saw them.
    expect(asked.some((u) => u.endsWith('/_sidebar.md'))).toBe(true);
    expect(asked.some((u) => u.endsWith('/robots.txt'))).toBe(true);
    expect(reachedUserNetwork()).toEqual([]);
    expect(sink.requests).toEqual([]);
  });
});

describe('scout check from a public site', { timeout: 60_000 }, () => {
  it('sends no request (HEAD or other) into loopback, 10/8 or the metadata address', async () => {
    const io = quietIo();
    await runCheck({ url: site.url('docs.hostile.test', '/'), strict: false, verbose: true, json: true }, io, recordingTransport());
    // The link check did run: the same-site links were asked for (and their hops refused).
    expect(asked.filter((u) => /\/go-(loopback|private|metadata)$/.test(u)).length).toBeGreaterThanOrEqual(3);
    expect(reachedUserNetwork()).toEqual([]);
    expect(sink.requests).toEqual([]);
    expect(io.lines.join('\n')).not.toContain(SINK_SECRET);
    // The report says they were not checked, and why, instead of counting them as answering.
    expect(io.lines.join('\n')).toMatch(/1 of 4 links answer \(3 not checked: Redirected to http:\/\/[\d.:]+\/[^ ]*: A [^:]+: Scout never fetches these from a public site, and the like/);
  });
});

describe('scout lint <url>', { timeout: 30_000 }, () => {
  it('does not follow a redirect into loopback, and says why', async () => {
    const io = quietIo();
    const run = runLint({ inputs: [site.url('docs.hostile.test', '/moved/llms.txt')], strict: false, json: false }, io, recordingTransport());
    await expect(run).rejects.toThrow(UsageError);
    await expect(run).rejects.toThrow(`Redirected to http://127.0.0.1:${sink.port}/llms.txt: A loopback address (this computer) (127.0.0.1): Scout never fetches these from a public site`);
    expect(sink.requests).toEqual([]);
  });

  it('does not connect to a public-looking name that resolves to loopback, unless that name is the one asked for', async () => {
    const start = site.url('docs.hostile.test', '/rebind/llms.txt');
    const run = runLint({ inputs: [start], strict: false, json: false }, quietIo(), resolvingFetch(start, testLookup as never));
    await expect(run).rejects.toThrow(/: Could not connect: intranet\.hostile\.test resolves to a loopback address \(this computer\) \(127\.0\.0\.1\): Scout never fetches these from a public site/);
    expect(sink.requests).toEqual([]);
    // The user's own choice of host is theirs to make: the same file asked for directly is linted.
    const own = sink.url('intranet.hostile.test', '/llms.txt');
    const io = quietIo();
    await runLint({ inputs: [own], strict: false, json: false }, io, resolvingFetch(own, testLookup as never));
    expect(io.lines.join('\n')).toContain('llms.txt');
    expect(sink.requests.map((r) => r.host)).toEqual(['intranet.hostile.test']);
  });
});

describe('the headless engine, whatever fetch it is given', { timeout: 60_000 }, () => {
  it('checkSite and crawlSite guard their own fetch: a bare transport still reaches nothing private', async () => {
    const check = await checkSite({ pageUrl: site.url('docs.hostile.test', '/'), fetch: recordingTransport() });
    expect(check.report.checks.find((r) => r.id === 'links')?.summary).toMatch(/3 not checked/);
    const db = createDb(`guard-${crypto.randomUUID()}`);
    try {
      await crawlSite({ db, startUrl: site.url('wiki.hostile.test', '/'), fetch: recordingTransport(), rendering: true });
    } finally {
      await db.delete();
    }
    expect(reachedUserNetwork()).toEqual([]);
    expect(sink.requests).toEqual([]);
  });
});
