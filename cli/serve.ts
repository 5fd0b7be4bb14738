/**
 * `scout serve`: a local HTTP service with Firecrawl's llms.txt API shape (POST /v1/llmstxt starts a
 * job, GET /v1/llmstxt/{id} polls it), so a script written against Firecrawl's SDK switches to Scout
 * by pointing its API URL here. The shape is the one the `firecrawl` npm SDK (4.42.0, its v1 client:
 * generateLLMsText, asyncGenerateLLMsText, checkGenerateLLMsTextStatus) sends and reads; where Scout
 * answers differently is in docs/serve.md.
 *
 * A job is `scout generate`'s crawl (lib/headless/crawl-site.ts) behind the same network guard
 * (commandFetch), one job at a time, the rest waiting in order. Results stay in memory for 24 hours,
 * as Firecrawl keeps them.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MemoryStore } from '../lib/store/store';
import { BodySpill } from '../lib/store/memory/body-spill';
import { queueRowsIn } from '../lib/store/crawl-report';
import { MAX_PAGES_LIMIT } from '../lib/crawl/settings';
import { crawlSite } from '../lib/headless/crawl-site';
import { EXIT, UsageError, type ExitCode, type Io } from './common';
import { commandFetch } from './fetch';

/** Firecrawl's default page limit for an llms.txt job. */
export const DEFAULT_MAX_URLS = 10;
/** How long a finished job's result is kept (Firecrawl's expiresAt is a day after the job). */
export const JOB_TTL_MS = 24 * 60 * 60 * 1000;
/** Jobs waiting behind the running one; more are refused (429) rather than queued without end. */
export const MAX_WAITING = 32;
/** Finished jobs kept at most (each may hold megabytes of llms-full.txt); the oldest go first. */
const MAX_KEPT = 100;
/** A request body over this is refused (413): a job's parameters are a few hundred bytes. */
const MAX_BODY_BYTES = 64 * 1024;
/** The body must arrive within this, or the request is answered 408 (a client that stalls holds nothing). */
const BODY_TIMEOUT_MS = 10_000;

/** The fields of Firecrawl's GenerateLLMsTextParams (and the SDK's own `origin`) this service reads or knowingly ignores. */
const KNOWN_FIELDS = new Set(['url', 'maxUrls', 'showFullText', 'cache', 'origin', '__experimental_stream', 'integration']);

export interface ServeOptions {
  port: number;
  host: string;
  /** Replaces Node's network under the guard (as `scout generate` takes one; tests). */
  transport?: typeof fetch;
}

type Status = 'processing' | 'completed' | 'failed';

interface Job {
  id: string;
  url: string;
  maxUrls: number;
  showFullText: boolean;
  status: Status;
  llmstxt: string;
  llmsfulltxt?: string;
  error?: string;
  createdAt: number;
  expiresAt: number;
}

export interface ServeHandle {
  url: string;
  server: Server;
  /** Stops taking requests; a running crawl is left to end with the process. */
  close: () => Promise<void>;
}

/** A JSON answer; never CORS headers: a web page the user visits must not read what Scout crawled. */
function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  res.end(text);
}

const failure = (res: ServerResponse, status: number, error: string) => send(res, status, { success: false, error });

class BodyError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => {
      reject(new BodyError(408, `The request body did not arrive within ${BODY_TIMEOUT_MS / 1000} seconds`));
      req.destroy();
    }, BODY_TIMEOUT_MS);
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        clearTimeout(timer);
        reject(new BodyError(413, `The request body is over ${MAX_BODY_BYTES / 1024} KB; a job's parameters are a JSON object of a few fields`));
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** The job's parameters from a POST body, or the reason they are refused (answered 400). */
export function parseJobRequest(text: string): { url: string; maxUrls: number; showFullText: boolean } | { error: string } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { error: 'The body must be JSON, e.g. {"url": "https://docs.example.com/", "maxUrls": 10}' };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { error: 'The body must be a JSON object with a "url" field' };
  const fields = body as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((key) => !KNOWN_FIELDS.has(key));
  if (unknown.length) return { error: `Unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')}: this service takes url, maxUrls, showFullText (and accepts cache, origin)` };
  const { url, maxUrls = DEFAULT_MAX_URLS, showFullText = false } = fields;
  if (typeof url !== 'string' || !url.trim()) return { error: '"url" is required: the page to start from, e.g. "https://docs.example.com/"' };
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return { error: `"url" must be an absolute http(s) URL, got "${url.slice(0, 200)}"` };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { error: `"url" must be an http(s) URL, got a ${parsed.protocol} one` };
  if (typeof maxUrls !== 'number' || !Number.isInteger(maxUrls) || maxUrls < 1 || maxUrls > MAX_PAGES_LIMIT) return { error: `"maxUrls" must be a whole number from 1 to ${MAX_PAGES_LIMIT.toLocaleString('en')}, got ${JSON.stringify(maxUrls)}` };
  if (typeof showFullText !== 'boolean') return { error: `"showFullText" must be true or false, got ${JSON.stringify(showFullText)}` };
  for (const flag of ['cache', '__experimental_stream'] as const) {
    if (fields[flag] !== undefined && typeof fields[flag] !== 'boolean') return { error: `"${flag}" must be true or false, got ${JSON.stringify(fields[flag])}` };
  }
  return { url: parsed.href, maxUrls, showFullText };
}

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/**
 * Whether the request may be answered: its Host names this machine (or the address bound to),
 * so a web page cannot reach the service through a name of its own that resolves to loopback
 * (DNS rebinding), and a browser request from another origin (a page the user visits posting
 * here) is refused. Scripts and the SDK send no Origin.
 */
function allowedRequest(req: IncomingMessage, boundHost: string): string | null {
  const host = req.headers.host ?? '';
  const name = host.replace(/:\d+$/, '').toLowerCase();
  const wildcard = boundHost === '0.0.0.0' || boundHost === '::';
  if (!wildcard && !LOOPBACK_NAMES.has(name) && name !== boundHost.toLowerCase()) return `Host "${host}" is not this service's address`;
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://${host}`) return 'Requests from web pages on other origins are refused';
  return null;
}

/** The service: its jobs in memory, run one at a time. */
export class LlmsTxtService {
  private readonly jobs = new Map<string, Job>();
  private readonly waiting: Job[] = [];
  private running: Job | null = null;

  constructor(
    private readonly io: Io,
    private readonly transport?: typeof fetch,
  ) {}

  /** A new job, queued; null when the queue is full. */
  start(params: { url: string; maxUrls: number; showFullText: boolean }): Job | null {
    this.prune();
    if (this.waiting.length >= MAX_WAITING) return null;
    const now = Date.now();
    const job: Job = { id: crypto.randomUUID(), ...params, status: 'processing', llmstxt: '', createdAt: now, expiresAt: now + JOB_TTL_MS };
    this.jobs.set(job.id, job);
    this.waiting.push(job);
    this.io.progress(`Job ${job.id}: ${job.url}, at most ${job.maxUrls} pages${this.running ? ` (waits behind ${this.waiting.length} job${this.waiting.length > 1 ? 's' : ''})` : ''}`);
    void this.next();
    return job;
  }

  get(id: string): Job | undefined {
    this.prune();
    return this.jobs.get(id);
  }

  /** Drops expired jobs, and the oldest finished ones over MAX_KEPT. */
  private prune(): void {
    const now = Date.now();
    for (const [id, job] of this.jobs) if (job.status !== 'processing' && job.expiresAt <= now) this.jobs.delete(id);
    const finished = [...this.jobs.values()].filter((j) => j.status !== 'processing');
    for (const job of finished.slice(0, Math.max(0, finished.length - MAX_KEPT))) this.jobs.delete(job.id);
  }

  private async next(): Promise<void> {
    if (this.running) return;
    const job = this.waiting.shift();
    if (!job) return;
    this.running = job;
    try {
      await this.run(job);
    } finally {
      this.running = null;
      void this.next();
    }
  }

  private async run(job: Job): Promise<void> {
    // Each job on a store of its own, dropped with the job: jobs side by side never share rows. Its
    // pages wait on disk, not in the heap, as in `scout generate`; the job's end removes them.
    const db = new MemoryStore({ spill: new BodySpill() });
    try {
      const fetch = commandFetch(job.url, this.transport);
      const result = await crawlSite({ db, startUrl: job.url, fetch, rendering: true, settings: { maxPages: job.maxUrls } });
      if (!result.generated) {
        // Why nothing was stored: the start page's own failure says it best, else the crawl's message.
        const start = await queueRowsIn(db, result.job.id, ['failed']);
        const reason = start.find((f) => f.url === job.url)?.reason ?? start[0]?.reason;
        throw new Error(`Nothing generated: the crawl stored no page (${reason ?? result.job.message ?? result.crawlState})`);
      }
      job.llmstxt = result.generated.output.llmsTxt;
      if (job.showFullText) job.llmsfulltxt = result.generated.output.llmsFullTxt;
      job.status = 'completed';
      this.io.progress(`Job ${job.id}: done, ${result.job.counters.stored ?? 0} pages (${result.job.message ?? ''})`);
    } catch (error) {
      job.status = 'failed';
      job.error = error instanceof Error ? error.message : String(error);
      this.io.progress(`Job ${job.id}: failed, ${job.error}`);
    } finally {
      db.close();
      job.expiresAt = Date.now() + JOB_TTL_MS;
    }
  }
}

/** The status answer, in the fields the SDK's GenerateLLMsTextStatusResponse reads. */
function statusBody(job: Job) {
  return {
    success: job.status !== 'failed',
    status: job.status,
    data: { llmstxt: job.llmstxt, ...(job.llmsfulltxt !== undefined ? { llmsfulltxt: job.llmsfulltxt } : {}) },
    ...(job.error ? { error: job.error } : {}),
    expiresAt: new Date(job.expiresAt).toISOString(),
  };
}

const JOB_PATH = /^\/v1\/llmstxt\/([^/]+)$/;

/** Answers one request (routes: POST /v1/llmstxt, GET /v1/llmstxt/{id}). */
async function handle(service: LlmsTxtService, boundHost: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const refused = allowedRequest(req, boundHost);
  if (refused) return failure(res, 403, refused);
  // An Authorization header (the SDK sends "Bearer <apiKey>") is accepted and not checked: the service is local.
  const path = new URL(req.url ?? '/', 'http://scout.invalid').pathname.replace(/(?<!\/)\/+$/, '') || '/';
  if (path === '/v1/llmstxt') {
    if (req.method !== 'POST') return failure(res, 405, `${req.method} is not allowed on /v1/llmstxt: POST a job, then GET /v1/llmstxt/{id}`);
    let text: string;
    try {
      text = await readBody(req);
    } catch (error) {
      return failure(res, error instanceof BodyError ? error.status : 400, error instanceof Error ? error.message : String(error));
    }
    const params = parseJobRequest(text);
    if ('error' in params) return failure(res, 400, params.error);
    const job = service.start(params);
    if (!job) return failure(res, 429, `${MAX_WAITING} jobs are already waiting; try again when some have finished`);
    return send(res, 200, { success: true, id: job.id });
  }
  const match = JOB_PATH.exec(path);
  if (match) {
    if (req.method !== 'GET') return failure(res, 405, `${req.method} is not allowed on a job: GET it`);
    const id = decodeURIComponent(match[1] ?? '');
    const job = service.get(id);
    if (!job) return failure(res, 404, `No llms.txt job "${id.slice(0, 100)}": it never existed here, or it finished more than 24 hours ago, or this service restarted since`);
    return send(res, 200, statusBody(job));
  }
  return failure(res, 404, `Nothing at ${path.slice(0, 200)}: this service answers POST /v1/llmstxt and GET /v1/llmstxt/{id} (Firecrawl's llms.txt API)`);
}

/** Starts the service on host:port (port 0: a free one) and resolves once it listens. */
export function startServe(options: ServeOptions, io: Io): Promise<ServeHandle> {
  const service = new LlmsTxtService(io, options.transport);
  const server = createServer((req, res) => {
    handle(service, options.host, req, res).catch((error: unknown) => {
      if (!res.headersSent) failure(res, 500, `Scout failed to answer: ${error instanceof Error ? error.message : String(error)}`);
      else res.destroy();
    });
  });
  server.headersTimeout = 10_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      const host = options.host.includes(':') ? `[${options.host}]` : options.host;
      resolve({ url: `http://${host}:${port}`, server, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

/** `scout serve`: listens until interrupted (Ctrl-C, SIGTERM); exit 2 when the address cannot be taken. */
export async function runServe(options: ServeOptions, io: Io): Promise<ExitCode> {
  let handle: ServeHandle;
  try {
    handle = await startServe(options, io);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'EADDRINUSE' ? `port ${options.port} is in use (choose another with --port)` : code === 'EADDRNOTAVAIL' ? `${options.host} is not an address of this machine` : code === 'EACCES' ? `not allowed to listen on port ${options.port}` : error instanceof Error ? error.message : String(error);
    throw new UsageError(`serve cannot listen on ${options.host}:${options.port}: ${why}`);
  }
  io.out(`Scout serves Firecrawl's llms.txt API on ${handle.url} (POST /v1/llmstxt, GET /v1/llmstxt/{id})`);
  io.progress(`Point Firecrawl's SDK at it: new FirecrawlAppV1({ apiUrl: '${handle.url}' }) or new Firecrawl({ apiUrl: '${handle.url}' }).v1; any API key is accepted. Ctrl-C stops.`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  io.progress('Stopping.');
  handle.server.closeAllConnections();
  await handle.close();
  return EXIT.ok;
}
