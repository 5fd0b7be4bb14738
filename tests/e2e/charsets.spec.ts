import { startFixtureServer, type Route } from '../fixtures/server';
import { latestCrawl, readStore } from './extension-db';
import { expect, test } from './fixtures';
import { crawlToEnd } from './steps';

// Pages in other charsets than UTF-8, each declared one way: the conversion workers get the bytes
// and decode them (lib/pipeline/convert-port.ts), by the same rules as the CLI.
const HOST = 'charsets.example.test';
const cp1252 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x93, 0x71, 0x94, 0x20, 0x80]); // café “q” €
const sjis = Buffer.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]); // 日本語
const doc = (head: string, text: Buffer, more = 'and some more words to read as a page.') => Buffer.concat([Buffer.from(`<!doctype html><html><head>${head}<title>T</title></head><body><main><h1>Heading</h1><p>`), text, Buffer.from(` ${more}</p></main></body></html>`)]);
const utf16 = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const routes: Record<string, Route> = {
  '/': { body: '<!doctype html><html><head><title>Home</title></head><body><main><h1>Home</h1><p>Pages: <a href="/meta.html">meta</a> <a href="/header.html">header</a> <a href="/bom.html">bom</a> <a href="/untyped">untyped</a></p></main></body></html>', headers: { 'content-type': 'text/html; charset=utf-8' } },
  '/meta.html': { body: doc('<meta charset="windows-1252">', cp1252), headers: { 'content-type': 'text/html' } },
  '/header.html': { body: doc('', sjis), headers: { 'content-type': 'text/html; charset=Shift_JIS' } },
  '/bom.html': { body: utf16('<!doctype html><html><head><title>T</title></head><body><main><h1>Heading</h1><p>naïve ✓ and some more words to read as a page.</p></main></body></html>'), headers: { 'content-type': 'text/html' } },
  // No Content-Type: judged HTML by how it begins, then decoded by its <meta> as any HTML page.
  '/untyped': { body: doc('<meta charset="windows-1252">', cp1252, 'served without a content type.'), headers: {} },
};

test('pages in windows-1252, Shift_JIS and UTF-16 are decoded by their converter as the CLI decodes them', async ({ openPanel }) => {
  const site = await startFixtureServer({ [HOST]: { routes } });
  try {
    const panel = await openPanel(site.url(HOST, '/'));
    await crawlToEnd(panel);
    const { job } = await latestCrawl(panel);
    const pages = (await readStore<{ jobId: string; url: string; markdown: string; state: string }>(panel, 'pages')).filter((p) => p.jobId === job?.id && p.state === 'stored');
    const text = (path: string) => pages.find((p) => p.url === site.url(HOST, path))?.markdown ?? '';
    expect(text('/meta.html')).toBe('# Heading\n\ncafé “q” € and some more words to read as a page.');
    expect(text('/header.html')).toBe('# Heading\n\n日本語 and some more words to read as a page.');
    expect(text('/bom.html')).toBe('# Heading\n\nnaïve ✓ and some more words to read as a page.');
    expect(text('/untyped')).toBe('# Heading\n\ncafé “q” € served without a content type.');
  } finally {
    await site.close();
  }
});
