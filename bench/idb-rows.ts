/**
 * What 100,000 frontier rows cost Chromium's IndexedDB, next to the same URLs kept as one record:
 * the floor under "a page with 100,000 links costs < 2 s" (#17) while every found URL is a row.
 * Raw IndexedDB in a plain page (no Dexie, no extension), relaxed durability like lib/store/db.ts, the
 * frontier's three compound indexes or none. Prints the figures; writes bench/results/idb-rows-<date>.json.
 *
 * Run: npx tsx bench/idb-rows.ts [--rows 100000] [--runs 3]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { startFixtureServer } from '../tests/fixtures/server';
import { CHROMIUM, HOST_RULES } from '../tests/e2e/browser';
import { arg } from './harness';

const ROWS = Number(arg('rows', '100000'));
const RUNS = Number(arg('runs', '3'));

const server = await startFixtureServer({ 'idb.test': { routes: { '/': { headers: { 'content-type': 'text/html' }, body: '<!doctype html><title>idb</title>' } } } });
const browser = await chromium.launch({ executablePath: CHROMIUM, args: [`--host-resolver-rules=${HOST_RULES}`, '--no-sandbox'] });
const runs: Array<Record<string, number>> = [];
try {
  for (let run = 0; run < RUNS; run++) {
    // A fresh page (and databases) per run, on a real origin: IndexedDB needs one.
    const page = await browser.newPage();
    // tsx compiles the functions handed to evaluate() with esbuild's __name helper; give the page a no-op one.
    await page.addInitScript('globalThis.__name = (f) => f');
    await page.goto(server.url('idb.test', '/'));
    runs.push(
      await page.evaluate(async ([n, tag]) => {
        const open = (name: string, indexes: boolean) =>
          new Promise<IDBDatabase>((resolve, reject) => {
            const r = indexedDB.open(`${name}-${tag}`, 1);
            r.onupgradeneeded = () => {
              const s = r.result.createObjectStore('frontier', { keyPath: ['jobId', 'key'] });
              if (indexes) {
                s.createIndex('state', ['jobId', 'state']);
                s.createIndex('order', ['jobId', 'state', 'depth', 'seq']);
                s.createIndex('seq', ['jobId', 'seq']);
              }
              r.result.createObjectStore('blocks', { keyPath: 'id' });
            };
            r.onsuccess = () => resolve(r.result);
            r.onerror = () => reject(r.error);
          });
        const url = (k: number) => `https://docs.example.test/reference/w${k}.html`;
        const rows = Array.from({ length: n }, (_, k) => ({ jobId: 'job', key: url(k), url: url(k), state: 'pending', depth: 2, seq: k, source: 'link', parentUrl: 'https://docs.example.test/index.html', retries: 0, updatedAt: 0 }));
        const timed = (db: IDBDatabase, store: string, write: (s: IDBObjectStore) => void) =>
          new Promise<number>((resolve, reject) => {
            const started = performance.now();
            const tx = db.transaction(store, 'readwrite', { durability: 'relaxed' });
            write(tx.objectStore(store));
            tx.oncomplete = () => resolve(performance.now() - started);
            tx.onerror = () => reject(tx.error);
          });
        const indexed = await open('indexed', true);
        const bare = await open('bare', false);
        return {
          rowsWithIndexesMs: await timed(indexed, 'frontier', (s) => rows.forEach((r) => s.add(r))),
          rowsWithoutIndexesMs: await timed(bare, 'frontier', (s) => rows.forEach((r) => s.add(r))),
          oneRecordMs: await timed(bare, 'blocks', (s) => s.put({ id: 1, urls: rows.map((r) => r.url) })),
        };
      }, [ROWS, `${Date.now()}-${run}`] as const),
    );
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const m = (k: string) => median(runs.map((r) => r[k] ?? NaN));
const results = { date: new Date().toISOString(), rows: ROWS, runs, machine: '2 cores', note: arg('note', ''), medianMs: { rowsWithIndexes: m('rowsWithIndexesMs'), rowsWithoutIndexes: m('rowsWithoutIndexesMs'), oneRecord: m('oneRecordMs') } };
mkdirSync('bench/results', { recursive: true });
const file = arg('out', `bench/results/idb-rows-${results.date.slice(0, 10)}.json`);
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
console.log(`\n${ROWS} frontier rows in one IndexedDB transaction, headless Chromium (median of ${RUNS})\n`);
console.log('| write | ms | µs per URL |\n|---|---:|---:|');
for (const [name, ms] of Object.entries(results.medianMs)) console.log(`| ${name} | ${ms.toFixed(0)} | ${((1000 * ms) / ROWS).toFixed(1)} |`);
console.log(`\nWrote ${file}`);
