/**
 * `scout serve` (cli/serve.ts, #29) run as a child process, as a user runs it, driven by the real
 * Firecrawl SDK (the `firecrawl` npm package's v1 client) with its API URL on loopback: the
 * llms.txt of a fixture docs site served by the fixture server comes back in Firecrawl's shape.
 * Bad input gets 400s with the reason, an unknown job a 404 in words, a failed crawl a failed
 * status with the error.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { createServer } from 'node:net';
import Firecrawl, { FirecrawlAppV1 } from 'firecrawl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../fixtures/server';
import { scoutWithin } from './run-scout';

const DEMO = 'tests/fixtures/sites/demo-docs';

interface Serve {
  child: ChildProcess;
  url: string;
  stderr: () => string;
}

/** `node --import tsx cli/scout.ts serve --port 0`; resolves with the URL it prints once listening. */
function startServe(): Promise<Serve> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'cli/scout.ts', 'serve', '--port', '0'], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /on (http:\/\/127\.0\.0\.1:\d+) /.exec(stdout)?.[1];
      if (url) resolve({ child, url, stderr: () => stderr });
    });
    child.once('exit', (code) => reject(new Error(`scout serve exited ${code} before listening: ${stderr}`)));
  });
}


/** A raw request with the headers given (fetch cannot set Host). */
function raw(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; json: { success?: boolean; error?: string } & Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => void (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const post = (url: string, body: string, headers: Record<string, string> = {}) => raw(`${url}/v1/llmstxt`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

let site: FixtureServer;
let serve: Serve;
let start: string;

beforeAll(async () => {
  site = await startFixtureServer({ '127.0.0.1': { dir: DEMO } });
  start = `http://127.0.0.1:${site.port}/`;
  serve = await startServe();
}, 60_000);

afterAll(async () => {
  serve?.child.kill('SIGTERM');
  await site?.close();
});

describe('scout serve, driven by the Firecrawl SDK', () => {
  it('generateLLMsText returns the llms.txt and llms-full.txt of the fixture site', async () => {
    const app = new FirecrawlAppV1({ apiKey: 'fc-not-checked', apiUrl: serve.url });
    const result = await app.generateLLMsText(start, { maxUrls: 20, showFullText: true });
    expect(result.success, JSON.stringify(result)).toBe(true);
    if (!('data' in result)) throw new Error(JSON.stringify(result));
    expect(result.status).toBe('completed');
    const { llmstxt, llmsfulltxt } = result.data;
    // The site's H1 and its pages as entries, linked where the fixture server serves them.
    expect(llmstxt).toMatch(/^# Acorn DB\n/);
    const entries = llmstxt.match(/^- \[[^\]]+\]\(([^)]+)\)/gm) ?? [];
    expect(entries.length).toBeGreaterThanOrEqual(8);
    expect(entries.length).toBeLessThanOrEqual(20);
    expect(llmstxt).toContain(`](${start}guide/index.html)`);
    expect(llmsfulltxt).toMatch(/^# Acorn DB/);
    expect(llmsfulltxt?.length ?? 0).toBeGreaterThan(llmstxt.length);
    expect(Date.parse(result.expiresAt)).toBeGreaterThan(Date.now() + 23 * 3600_000);
    // The crawl went to the fixture site, under the CLI's user agent.
    expect(site.requests.some((r) => r.path === '/' && String(r.headers['user-agent']).startsWith('llms-txt-scout-cli/'))).toBe(true);
  }, 120_000);

  it('the async start and the status check, through the v2 client’s v1 accessor, with a page limit and no full text', async () => {
    const app = new Firecrawl({ apiKey: 'anything', apiUrl: serve.url }).v1;
    const started = await app.asyncGenerateLLMsText(start, { maxUrls: 3 });
    if (!('id' in started)) throw new Error(JSON.stringify(started));
    expect(started).toEqual({ success: true, id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    let status = await app.checkGenerateLLMsTextStatus(started.id);
    for (let i = 0; i < 600 && 'status' in status && status.status === 'processing'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = await app.checkGenerateLLMsTextStatus(started.id);
    }
    if (!('status' in status)) throw new Error(JSON.stringify(status));
    expect(status.status).toBe('completed');
    expect(status.data.llmstxt).toMatch(/^# Acorn DB\n/);
    expect((status.data.llmstxt.match(/^- \[/gm) ?? []).length).toBeLessThanOrEqual(3);
    expect(status.data.llmstxt).toContain('from 3 pages');
    expect(status.data.llmsfulltxt).toBeUndefined();
  }, 120_000);

  it('a crawl that fails ends as failed, with the error in words', async () => {
    // A loopback port nothing listens on.
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const app = new FirecrawlAppV1({ apiUrl: serve.url });
    const result = await app.generateLLMsText(`http://127.0.0.1:${closed}/`, { maxUrls: 2 });
    expect(result.success).toBe(false);
    expect('status' in result && result.status).toBe('failed');
    expect('error' in result && result.error).toMatch(/^Nothing generated: the crawl stored no page \(Could not connect/);
  }, 120_000);

  it('bad input: 400 with the reason, and the SDK says it', async () => {
    const cases: Array<[string, RegExp]> = [
      ['not json', /must be JSON/],
      ['[1]', /JSON object/],
      ['{}', /"url" is required/],
      ['{"url": "docs.example.com"}', /absolute http\(s\) URL/],
      ['{"url": "file:///etc/passwd"}', /http\(s\) URL, got a file: one/],
      [`{"url": "${start}", "maxUrls": 0}`, /"maxUrls" must be a whole number from 1 to 10,000, got 0/],
      [`{"url": "${start}", "maxUrls": "5"}`, /"maxUrls" must be a whole number/],
      [`{"url": "${start}", "showFullText": "yes"}`, /"showFullText" must be true or false/],
      [`{"url": "${start}", "formats": ["markdown"]}`, /Unknown field "formats"/],
    ];
    for (const [body, reason] of cases) {
      const answer = await post(serve.url, body);
      expect(answer.status, body).toBe(400);
      expect(answer.json.success, body).toBe(false);
      expect(answer.json.error, body).toMatch(reason);
    }
    const app = new FirecrawlAppV1({ apiUrl: serve.url });
    await expect(app.asyncGenerateLLMsText('ftp://docs.example.com/', {})).rejects.toThrow(/status code 400\. Error: "url" must be an http\(s\) URL/);
    await expect(app.asyncGenerateLLMsText(start, { maxUrls: 1.5 })).rejects.toThrow(/"maxUrls" must be a whole number/);
  });

  it('an unknown job is a 404 in words; other paths and methods say what the service answers', async () => {
    const missing = await raw(`${serve.url}/v1/llmstxt/00000000-0000-0000-0000-000000000000`);
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ success: false, error: expect.stringMatching(/^No llms\.txt job "00000000-0000-0000-0000-000000000000"/) });
    await expect(new FirecrawlAppV1({ apiUrl: serve.url }).checkGenerateLLMsTextStatus('nope')).rejects.toThrow(/not found/);
    const elsewhere = await raw(`${serve.url}/v1/scrape`, { method: 'POST', body: '{}' });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.json.error).toMatch(/POST \/v1\/llmstxt and GET \/v1\/llmstxt\/\{id\}/);
    const wrongMethod = await raw(`${serve.url}/v1/llmstxt`);
    expect(wrongMethod.status).toBe(405);
  });

  it('refuses requests from web pages: another Host (DNS rebinding) or a cross-origin Origin', async () => {
    const body = JSON.stringify({ url: start });
    const rebound = await post(serve.url, body, { host: 'attacker.example' });
    expect(rebound.status).toBe(403);
    expect(rebound.json.error).toMatch(/Host "attacker\.example" is not this service's address/);
    const crossOrigin = await post(serve.url, body, { origin: 'https://attacker.example' });
    expect(crossOrigin.status).toBe(403);
    expect(crossOrigin.json.error).toMatch(/web pages on other origins/);
  });
});

describe('scout serve on the command line', () => {
  it('exits 2 on bad usage or a port it cannot take, with the reason', async () => {
    const taken = new URL(serve.url).port;
    const cases: Array<[string[], RegExp]> = [
      [['serve', '--port', 'abc'], /--port must be a whole number from 0 to 65535/],
      [['serve', 'https://docs.example.com/'], /serve takes no arguments/],
      [['serve', '--out', 'x'], /serve does not take --out/],
      [['serve', '--port', taken], new RegExp(`port ${taken} is in use`)],
    ];
    for (const [args, reason] of cases) {
      const run = await scoutWithin(60_000, ...args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toMatch(reason);
    }
    const help = await scoutWithin(60_000, '--help');
    expect(help.stdout).toMatch(/scout serve \[--port N\]/);
    const serveHelp = await scoutWithin(60_000, 'serve', '--help');
    for (const word of ['POST /v1/llmstxt', 'GET  /v1/llmstxt/{id}', '--port', '--host', 'Exit 0', 'docs/serve.md']) expect(serveHelp.stdout).toContain(word);
  }, 60_000);
});
