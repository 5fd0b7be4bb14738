/**
 * Retrieval benchmark for `search_docs` (lib/agents/): hand-written questions about the Python 3.11
 * and Node.js docs (Debian's python3.11-doc and nodejs-doc in .cache/docs), each with the page or
 * pages that answer it, asked of docs folders made from real crawls of those sites by the
 * product's own crawler. Prints recall@5 (a question counts when an answering page is among the
 * first five results), MRR, search latency (p50, p95; wall and CPU time) and the time to read
 * each folder, to index it, to load that index saved by an earlier start, and start-up (a later
 * start to its first answer);
 * writes bench/results/retrieval-<date>.json.
 *
 * The questions were written from knowledge of the docs, as a developer would ask them, before
 * looking at any result, and are not changed to suit the ranking.
 *
 *   npx tsx bench/retrieval.ts [--fresh] [--corpus python,node] [--runs 5] [--out <file>] [--tuning <json>] [--scale 10000]
 *
 * --scale N adds a folder of N pages made from the two crawls' pages, copied under other paths
 * with each copy's text cut to its first SCALE_PAGE_CHARS characters (a big site's typical page,
 * where the Python docs average 30 KB): its start-up, index time and search latency over every
 * question (recall is not scored there, as each answer has many copies).
 *
 * The folders are built once into .cache/retrieval/<corpus> (a few minutes of crawling each);
 * --fresh builds them again.
 */
import 'fake-indexeddb/auto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DocsLibrary } from '../lib/agents/docs-library';
import { manifestText, pageFileText, type DocsManifest } from '../lib/agents/docs-folder';
import { readDocsFolder } from '../lib/agents/read-folder';
import { docsFolderFromDb } from '../lib/agents/from-db';
import { AGENT_TUNING, type SearchTuning } from '../lib/agents/search-index';
import { createDb } from '../lib/store/db';
import { crawlSite } from '../lib/headless/crawl-site';
import { writeFilesInside } from '../lib/headless/write-out';
import { nodeDocsSite, pythonDocsDir } from '../tests/fixtures/real-docs';
import { loopbackFetch, startFixtureServer } from '../tests/fixtures/server';
import { measuredCommit } from './commit';

/** A question and the pages that answer it, by the end of their URL path without the extension. */
type Question = [question: string, ...answers: string[]];

const PYTHON: Question[] = [
  ['How do I read a file line by line?', 'tutorial/inputoutput', 'library/io', 'library/fileinput'],
  ['serialize a Python object to a JSON string with indentation', 'library/json'],
  ['sort a list of dictionaries by a key', 'howto/sorting', 'library/stdtypes', 'library/functions'],
  ['run a shell command and capture its output', 'library/subprocess'],
  ['parse command line arguments with flags and help messages', 'library/argparse', 'howto/argparse'],
  ['create a virtual environment', 'library/venv', 'tutorial/venv'],
  ['regular expression match a group and get named groups', 'library/re', 'howto/regex'],
  ['difference between a list and a tuple', 'tutorial/datastructures', 'library/stdtypes'],
  ['list comprehension syntax', 'tutorial/datastructures', 'reference/expressions'],
  ['how to define a class with a constructor', 'tutorial/classes', 'reference/datamodel'],
  ['handle an exception and re-raise it', 'tutorial/errors', 'reference/simple_stmts'],
  ['write a context manager with the with statement', 'library/contextlib', 'reference/compound_stmts', 'reference/datamodel'],
  ['dataclass with default values and frozen instances', 'library/dataclasses'],
  ['type hints for a function that returns an optional value', 'library/typing'],
  ['generic type variable TypeVar', 'library/typing'],
  ['count occurrences of items with Counter', 'library/collections'],
  ['dictionary that remembers insertion order or has default values', 'library/collections'],
  ['format a date as a string with strftime', 'library/datetime', 'library/time'],
  ['convert a timestamp to a datetime in UTC', 'library/datetime'],
  ['time zones with the IANA database', 'library/zoneinfo'],
  ['join paths and get the file extension', 'library/pathlib', 'library/os.path'],
  ['list all files in a directory recursively', 'library/os', 'library/pathlib', 'library/glob'],
  ['copy a directory tree', 'library/shutil'],
  ['create a temporary file that is deleted automatically', 'library/tempfile'],
  ['read environment variables', 'library/os'],
  ['run coroutines concurrently and wait for all of them', 'library/asyncio-task'],
  ['asyncio timeout for a coroutine', 'library/asyncio-task'],
  ['run an asyncio program from main', 'library/asyncio-runner', 'library/asyncio-task'],
  ['asyncio queue producer consumer', 'library/asyncio-queue'],
  ['start a thread and wait for it to finish', 'library/threading'],
  ['lock to protect shared data between threads', 'library/threading'],
  ['run a function in a pool of processes', 'library/multiprocessing', 'library/concurrent.futures'],
  ['ThreadPoolExecutor submit and as_completed', 'library/concurrent.futures'],
  ['log messages to a file with a format', 'library/logging', 'howto/logging', 'howto/logging-cookbook'],
  ['configure logging from a dictionary', 'library/logging.config'],
  ['rotate log files by size', 'library/logging.handlers'],
  ['write unit tests with setUp and assertions', 'library/unittest'],
  ['mock a function in a test and check it was called', 'library/unittest.mock', 'library/unittest.mock-examples'],
  ['test examples in docstrings', 'library/doctest'],
  ['read and write CSV files', 'library/csv'],
  ['store data in a SQLite database', 'library/sqlite3'],
  ['pickle an object to a file', 'library/pickle'],
  ['deep copy a nested object', 'library/copy'],
  ['compute a SHA-256 hash of a file', 'library/hashlib'],
  ['generate a secure random token for passwords', 'library/secrets'],
  ['pick a random element from a list', 'library/random'],
  ['exact decimal arithmetic for money', 'library/decimal'],
  ['mean median and standard deviation', 'library/statistics'],
  ['square root and trigonometric functions', 'library/math'],
  ['fetch a URL with an HTTP GET request', 'library/urllib.request', 'howto/urllib2'],
  ['split a URL into its parts and encode query parameters', 'library/urllib.parse'],
  ['start a simple HTTP server to serve files', 'library/http.server'],
  ['open a TCP socket connection', 'library/socket', 'howto/sockets'],
  ['TLS certificate verification', 'library/ssl'],
  ['send an email over SMTP', 'library/smtplib', 'library/email.examples'],
  ['parse an XML document with ElementTree', 'library/xml.etree.elementtree'],
  ['read a TOML configuration file', 'library/tomllib'],
  ['read an INI configuration file', 'library/configparser'],
  ['compress data with gzip', 'library/gzip', 'library/zlib'],
  ['create a zip archive', 'library/zipfile', 'library/shutil'],
  ['extract a tar file', 'library/tarfile'],
  ['cache the results of a function', 'library/functools'],
  ['partial function application', 'library/functools'],
  ['iterate over combinations and permutations', 'library/itertools'],
  ['chain several iterables together', 'library/itertools'],
  ['define an enumeration with named constants', 'library/enum', 'howto/enum'],
  ['abstract base class with abstract methods', 'library/abc'],
  ['measure how long a small piece of code takes', 'library/timeit'],
  ['profile a program to find slow functions', 'library/profile'],
  ['debug a program with breakpoints', 'library/pdb'],
  ['print a stack trace of an exception', 'library/traceback'],
  ['track memory allocations', 'library/tracemalloc'],
  ['format strings with f-strings', 'reference/lexical_analysis', 'tutorial/inputoutput'],
  ['string format specification mini-language', 'library/string'],
  ['what does the walrus operator do', 'reference/expressions', 'whatsnew/3.8'],
  ['structural pattern matching with match and case', 'reference/compound_stmts', 'tutorial/controlflow', 'whatsnew/3.10'],
  ['how do generators and yield work', 'reference/expressions', 'tutorial/classes', 'howto/functional', 'reference/simple_stmts'],
  ['how do decorators work', 'reference/compound_stmts', 'glossary'],
  ['how do descriptors and properties work', 'howto/descriptor', 'reference/datamodel'],
  ['special method for the length of an object', 'reference/datamodel'],
  ['how are modules imported and what is sys.path', 'reference/import', 'tutorial/modules', 'library/sys_path_init', 'library/sys'],
  ['why is 0.1 plus 0.2 not exactly 0.3', 'tutorial/floatingpoint'],
  ['encode a string as UTF-8 bytes and decode it', 'howto/unicode', 'library/stdtypes', 'library/codecs'],
  ['base64 encoding', 'library/base64'],
  ['pack binary data into bytes with a format', 'library/struct'],
  ['heap queue priority queue', 'library/heapq', 'library/queue'],
  ['binary search in a sorted list', 'library/bisect'],
  ['compare two texts and show a diff', 'library/difflib'],
  ['wrap long text to a width', 'library/textwrap'],
  ['pretty print a nested data structure', 'library/pprint'],
  ['weak references to objects', 'library/weakref'],
  ['garbage collector', 'library/gc'],
  ['command line options of the python interpreter', 'using/cmdline'],
  ['what is new in Python 3.11', 'whatsnew/3.11'],
  ['exception groups and except star', 'library/exceptions', 'tutorial/errors', 'whatsnew/3.11', 'reference/compound_stmts'],
  ['parse Python source code into an abstract syntax tree', 'library/ast'],
  ['disassemble bytecode', 'library/dis'],
  ['call a C function in a shared library', 'library/ctypes'],
  ['write a C extension module', 'extending/extending', 'extending/newtypes_tutorial', 'extending/building'],
  ['reference counting in the C API', 'c-api/refcounting', 'c-api/intro', 'extending/extending'],
  ['signal handler for Ctrl-C', 'library/signal'],
  ['schedule a function to run at interpreter exit', 'library/atexit'],
  ['get the current user name and password prompt without echo', 'library/getpass'],
  ['inspect the signature of a function', 'library/inspect'],
  ['context variables in async code', 'library/contextvars'],
  ['UUID generation', 'library/uuid'],
  ['IP addresses and networks', 'library/ipaddress', 'howto/ipaddress'],
  ['play with turtle graphics', 'library/turtle'],
  ['build a GUI with Tk', 'library/tkinter', 'library/tkinter.ttk'],
];

const NODE: Question[] = [
  ['read a file asynchronously with promises', 'fs'],
  ['watch a directory for changes', 'fs'],
  ['join path segments and resolve an absolute path', 'path'],
  ['create an HTTP server that answers requests', 'http'],
  ['make an HTTPS request', 'https'],
  ['HTTP/2 server push and streams', 'http2'],
  ['emit and listen for custom events', 'events'],
  ['pipe a readable stream into a writable stream with backpressure', 'stream'],
  ['convert a string to base64 with Buffer', 'buffer'],
  ['spawn a child process and read its stdout', 'child_process'],
  ['hash a password with scrypt or compute an HMAC', 'crypto'],
  ['Web Crypto API subtle encrypt', 'webcrypto'],
  ['parse a URL and read its search params', 'url'],
  ['promisify a callback function', 'util'],
  ['number of CPUs and free memory', 'os'],
  ['exit code and environment variables of the process', 'process'],
  ['run a function after a delay or repeatedly', 'timers'],
  ['run JavaScript in worker threads and share memory', 'worker_threads'],
  ['fork workers that share a server port', 'cluster'],
  ['create a TCP server', 'net'],
  ['resolve a hostname to an IP address', 'dns'],
  ['gzip compress a stream', 'zlib'],
  ['read input line by line from the terminal', 'readline'],
  ['assert deep equality in tests', 'assert'],
  ['write tests with the built-in test runner', 'test'],
  ['use ES modules with import and export', 'esm'],
  ['CommonJS require and module.exports', 'modules'],
  ['package.json exports field and conditional exports', 'packages'],
  ['error codes and system errors', 'errors'],
  ['print a table to the console', 'console'],
  ['run code in a sandboxed context', 'vm'],
  ['measure performance with high resolution timers', 'perf_hooks'],
  ['keep context across asynchronous calls with AsyncLocalStorage', 'async_context', 'async_hooks'],
  ['UDP datagram sockets', 'dgram'],
  ['TLS secure socket server with certificates', 'tls'],
  ['command line options like --inspect and --require', 'cli'],
  ['debug a Node.js program', 'debugger', 'inspector'],
  ['decode a stream of bytes into strings', 'string_decoder'],
  ['build a native addon in C++', 'addons', 'n-api'],
  ['web streams ReadableStream', 'webstreams'],
];

const CORPORA: Record<string, { questions: Question[]; host: string; start: string; site: () => Parameters<typeof startFixtureServer>[0][string] }> = {
  python: { questions: PYTHON, host: 'docs.python.test', start: '/index.html', site: () => ({ dir: pythonDocsDir() }) },
  node: { questions: NODE, host: 'nodejs.test', start: '/index.html', site: () => nodeDocsSite() },
};

const { values } = parseArgs({ options: { fresh: { type: 'boolean', default: false }, corpus: { type: 'string', default: 'python,node' }, runs: { type: 'string', default: '5' }, out: { type: 'string' }, tuning: { type: 'string' }, scale: { type: 'string' } } });
// Another ranking to compare on the same questions, e.g. --tuning '{"fuzzyMinLength":0}' (lib/agents/search-index.ts).
const tuning = values.tuning ? (JSON.parse(values.tuning) as Partial<SearchTuning>) : {};
const runs = Math.max(1, Number(values.runs) || 5);

/** The corpus's docs folder, crawled once into .cache/retrieval/<name>. */
async function folderFor(name: string): Promise<string> {
  const corpus = CORPORA[name];
  if (!corpus) throw new Error(`No corpus ${name}: ${Object.keys(CORPORA).join(', ')}`);
  const dir = `.cache/retrieval/${name}`;
  if (!values.fresh && existsSync(`${dir}/manifest.json`)) return dir;
  rmSync(dir, { recursive: true, force: true });
  const server = await startFixtureServer({ [corpus.host]: corpus.site() });
  const db = createDb(`retrieval-${name}-${crypto.randomUUID()}`);
  try {
    const started = performance.now();
    const { job } = await crawlSite({ db, startUrl: server.url(corpus.host, corpus.start), fetch: loopbackFetch(), output: {}, settings: { maxPages: 5000 } });
    const folder = await docsFolderFromDb(db, job.origin, { scoutVersion: 'bench' });
    if (!folder) throw new Error(`The ${name} crawl made no docs folder`);
    await writeFilesInside(dir, folder.files);
    console.error(`${name}: crawled and wrote ${folder.manifest.pages.length} pages in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return dir;
  } finally {
    await db.delete();
    await server.close();
  }
}

/** "/3.11/library/json.html" ends with "library/json" (extension aside). */
function answers(url: string, expected: string[]): boolean {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return false;
  }
  const bare = path.replace(/\.(?:html?|md)$/i, '').replace(/\/index$/, '/');
  return expected.some((e) => bare === `/${e}` || bare.endsWith(`/${e}`));
}

/** This process's CPU time: what a search costs on a core of its own, where wall time on a shared machine also counts waiting for one. */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

const SCALE_PAGE_CHARS = 6000;

/**
 * Opens `dir` as scout mcp does: the time to read it, to build its index, and to load that index
 * saved (what a later start costs; saved to a temporary cache folder). Start-up is a later start
 * to its first answer: the folder read, the saved index loaded, and a first search (whose results'
 * pages are read then, for their snippets).
 */
async function openTimed(dir: string, firstQuestion: string): Promise<{ library: DocsLibrary; readMs: number; indexMs: number; loadMs: number; startupMs: number }> {
  const cacheDir = mkdtempSync(join(tmpdir(), 'scout-retrieval-cache-'));
  try {
    let t = performance.now();
    const library = await DocsLibrary.open([dir], undefined, { tuning, cacheDir });
    const readMs = performance.now() - t;
    t = performance.now();
    library.indexAll();
    const indexMs = performance.now() - t;
    // The index is saved after the indexing call returns.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    const started = performance.now();
    const again = await DocsLibrary.open([dir], undefined, { tuning, cacheDir });
    t = performance.now();
    const { loaded } = again.indexAll();
    const loadMs = performance.now() - t;
    if (loaded !== 1) throw new Error('The saved index was not loaded');
    again.search(firstQuestion, { limit: 10 });
    const startupMs = performance.now() - started;
    return { library, readMs, indexMs, loadMs, startupMs };
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

/** A folder of `pages` pages from the corpora's folders (see --scale), made once into .cache/retrieval/scale-<pages>. */
async function scaleFolder(pages: number, sources: string[]): Promise<string> {
  const dir = `.cache/retrieval/scale-${pages}`;
  if (!values.fresh && existsSync(`${dir}/manifest.json`)) return dir;
  rmSync(dir, { recursive: true, force: true });
  const sets = await Promise.all(sources.map((source) => readDocsFolder(source)));
  const all = sets.flatMap((set, source) => set.pages.map((page) => ({ ...page, source })));
  const first = sets[0];
  if (!first || !all.length) throw new Error('No pages to scale from');
  const files: Array<{ relativePath: string; text: string }> = [];
  const listed: DocsManifest['pages'] = [];
  for (let i = 0; i < pages; i++) {
    const page = all[i % all.length];
    if (!page) continue;
    const copy = Math.floor(i / all.length);
    const folder = `copy-${copy}-${page.source}`;
    const path = page.path.replace(/^pages\//, `pages/${folder}/`);
    const url = new URL(page.url);
    url.pathname = `/${folder}${url.pathname}`;
    const entry = { path, url: url.href, title: page.title, section: page.section, tokens: page.tokens, fetchedAt: page.fetchedAt };
    listed.push(entry);
    files.push({ relativePath: path, text: pageFileText(entry, page.markdown.slice(0, SCALE_PAGE_CHARS)) });
  }
  const llms = first.llmsTxt.get('llms.txt') ?? '# Scale\n';
  const manifest: DocsManifest = { ...first.manifest, name: `${pages} pages`, files: [{ path: 'llms.txt', url: `${first.manifest.site}/llms.txt`, kind: 'llms' }], pages: listed };
  await writeFilesInside(dir, [...files, { relativePath: 'llms.txt', text: llms }, { relativePath: 'manifest.json', text: manifestText(manifest) }]);
  return dir;
}

const report: Record<string, unknown> = {};
const rows: string[] = ['| corpus | pages | questions | recall@1 | recall@5 | MRR@10 | search p50 | search p95 | CPU p95 | read | index | saved index | start-up |', '|---|---|---|---|---|---|---|---|---|---|---|---|---|'];
for (const name of values.corpus.split(',').map((s) => s.trim()).filter(Boolean)) {
  const dir = await folderFor(name);
  const corpus = CORPORA[name];
  if (!corpus) continue;
  const { library, readMs, indexMs, loadMs, startupMs } = await openTimed(dir, corpus.questions[0]?.[0] ?? '');
  const pages = library.list()[0]?.pages ?? 0;
  const misses: Array<{ question: string; expected: string[]; got: string[] }> = [];
  let at1 = 0;
  let at5 = 0;
  let rr = 0;
  const times: number[] = [];
  const cpuTimes: number[] = [];
  for (const [question, ...expected] of corpus.questions) {
    let hits = library.search(question, { limit: 10 });
    for (let run = 0; run < runs; run++) {
      const cpu = cpuMs();
      const started = performance.now();
      hits = library.search(question, { limit: 10 });
      times.push(performance.now() - started);
      cpuTimes.push(cpuMs() - cpu);
    }
    const rank = hits.findIndex((hit) => answers(hit.url, expected));
    if (rank === 0) at1++;
    if (rank >= 0 && rank < 5) at5++;
    else misses.push({ question, expected, got: hits.slice(0, 5).map((h) => new URL(h.url).pathname) });
    if (rank >= 0) rr += 1 / (rank + 1);
  }
  times.sort((a, b) => a - b);
  cpuTimes.sort((a, b) => a - b);
  const n = corpus.questions.length;
  const result = { pages, questions: n, recallAt1: at1 / n, recallAt5: at5 / n, mrrAt10: rr / n, searchMs: { p50: percentile(times, 50), p95: percentile(times, 95), max: times[times.length - 1] ?? 0 }, searchCpuMs: { p50: percentile(cpuTimes, 50), p95: percentile(cpuTimes, 95) }, readMs, indexMs, loadMs, startupMs, chunks: library.chunkCount, misses };
  report[name] = result;
  rows.push(`| ${name} | ${pages} | ${n} | ${result.recallAt1.toFixed(3)} | ${result.recallAt5.toFixed(3)} | ${result.mrrAt10.toFixed(3)} | ${result.searchMs.p50.toFixed(1)} ms | ${result.searchMs.p95.toFixed(1)} ms | ${result.searchCpuMs.p95.toFixed(1)} ms | ${Math.round(readMs)} ms | ${Math.round(indexMs)} ms | ${Math.round(loadMs)} ms | ${Math.round(startupMs)} ms |`);
  for (const miss of misses) console.error(`${name} miss: "${miss.question}" wanted ${miss.expected.join(' | ')}; got ${miss.got.join(', ')}`);
}
const scale = Number(values.scale ?? 0);
if (scale > 0) {
  const sources = Object.keys(CORPORA).map((name) => `.cache/retrieval/${name}`).filter((dir) => existsSync(`${dir}/manifest.json`));
  const dir = await scaleFolder(scale, sources);
  const questions = Object.values(CORPORA).flatMap((corpus) => corpus.questions.map(([question]) => question));
  const { library, readMs, indexMs, loadMs, startupMs } = await openTimed(dir, questions[0] ?? '');
  const times: number[] = [];
  const cpuTimes: number[] = [];
  for (const question of questions) {
    library.search(question, { limit: 10 });
    for (let run = 0; run < runs; run++) {
      const cpu = cpuMs();
      const started = performance.now();
      library.search(question, { limit: 10 });
      times.push(performance.now() - started);
      cpuTimes.push(cpuMs() - cpu);
    }
  }
  times.sort((a, b) => a - b);
  cpuTimes.sort((a, b) => a - b);
  const pages = library.list()[0]?.pages ?? 0;
  const result = { pages, chunks: library.chunkCount, questions: questions.length, readMs, indexMs, loadMs, startupMs, searchMs: { p50: percentile(times, 50), p95: percentile(times, 95), max: times[times.length - 1] ?? 0 }, searchCpuMs: { p50: percentile(cpuTimes, 50), p95: percentile(cpuTimes, 95) } };
  report[`scale-${scale}`] = result;
  rows.push(`| scale | ${pages} | ${questions.length} | – | – | – | ${result.searchMs.p50.toFixed(1)} ms | ${result.searchMs.p95.toFixed(1)} ms | ${result.searchCpuMs.p95.toFixed(1)} ms | ${Math.round(readMs)} ms | ${Math.round(indexMs)} ms | ${Math.round(loadMs)} ms | ${Math.round(startupMs)} ms |`);
}
console.log(rows.join('\n'));
mkdirSync('bench/results', { recursive: true });
const date = new Date().toISOString();
const out = values.out ?? `bench/results/retrieval-${date.slice(0, 10)}.json`;
writeFileSync(out, `${JSON.stringify({ date, commit: measuredCommit(), node: process.version, cores: cpus().length, loadAverage: loadavg()[0] ?? 0, runs, tuning: { ...AGENT_TUNING, ...tuning }, corpora: report }, null, 2)}\n`);
console.log(`Wrote ${out}`);
