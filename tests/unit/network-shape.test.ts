import { afterEach, describe, expect, it } from 'vitest';
import { loopbackFetch, startFixtureServer, type FixtureServer, type NetworkShape } from '../fixtures/server';

// The benchmark's network (bench/crawl.ts --latency/--bandwidth): lower bounds only, since a
// loaded machine may add time but never take it away.
const get = loopbackFetch();
const big = Buffer.alloc(200_000, 'x');
let server: FixtureServer | undefined;
afterEach(async () => server?.close());

async function serve(network?: NetworkShape) {
  server = await startFixtureServer({ 'net.example.test': { routes: { '/small': { body: 'hi' }, '/big': { body: big } } } }, { network });
  return server;
}

async function timed(url: string): Promise<{ ms: number; text: string }> {
  const started = Date.now();
  const text = await (await get(url, { signal: AbortSignal.timeout(10_000) })).text();
  return { ms: Date.now() - started, text };
}

describe('network shape of the fixture server', () => {
  it('delays every response by the latency, within the jitter, and logs when each ended', async () => {
    const s = await serve({ latencyMs: 60, jitterMs: 20 });
    const times = await Promise.all(Array.from({ length: 8 }, () => timed(s.url('net.example.test', '/small'))));
    for (const t of times) {
      expect(t.text).toBe('hi');
      expect(t.ms).toBeGreaterThanOrEqual(39);
    }
    for (const r of s.requests) expect((r.endedAt ?? 0) - r.at).toBeGreaterThanOrEqual(39);
    // Jitter really varies the waits (same seed, same draws: not all equal).
    const spans = s.requests.map((r) => (r.endedAt ?? 0) - r.at);
    expect(Math.max(...spans) - Math.min(...spans)).toBeGreaterThan(2);
  });

  it('caps bandwidth on one link that concurrent responses share', async () => {
    const s = await serve({ bandwidthBytesPerSecond: 1_000_000 });
    const one = await timed(s.url('net.example.test', '/big'));
    expect(one.text.length).toBe(big.length);
    expect(one.ms).toBeGreaterThanOrEqual(180);
    const started = Date.now();
    const two = await Promise.all([timed(s.url('net.example.test', '/big')), timed(s.url('net.example.test', '/big'))]);
    expect(two.map((t) => t.text.length)).toEqual([big.length, big.length]);
    // 400 kB through a 1 MB/s link: about 400 ms, however the two interleave.
    expect(Date.now() - started).toBeGreaterThanOrEqual(370);
  });

  it('adds nothing when no shape is given', async () => {
    const s = await serve();
    const t = await timed(s.url('net.example.test', '/big'));
    expect(t.text.length).toBe(big.length);
    expect(s.requests[0]?.status).toBe(200);
    expect(s.requests[0]?.bytes).toBe(big.length);
  });
});
