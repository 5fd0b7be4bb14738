/**
 * The publishing kit (#19 part 2): its layout (llms files at their paths, a twin per page in the
 * chosen form, snippets, README), and its snippets' syntax. The nginx snippet is run by Debian's
 * nginx (nginx-light) on loopback against the kit's own files: `nginx -t` accepts it, pages get
 * their Link headers and `Accept: text/markdown` gets the twin. Without nginx that part is skipped
 * and says so. vercel.json and _headers are checked against the shapes the platforms document.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { unzipSync, strFromU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildKit, twinPathOf, zipKit, type Kit, type TwinLayout } from '@/lib/check/kit';
import { findHtmlDirective, findTextDirective } from '@/lib/check/directive';
import { llmsFor } from '@/lib/check/snippets';
import { findPageLinks, parseLinkHeader } from '@/lib/discovery/page-links';

const ORIGIN = 'http://docs.example.test';
const FILES = [
  { path: '/llms.txt', text: '# Docs\n\n> Root.\n\n## Guide\n\n- [Intro](/guide/intro.html): Start\n' },
  { path: '/llms-full.txt', text: '# Docs\n\nEverything.\n' },
  { path: '/api/llms.txt', text: '# API\n\n> The API.\n\n## API\n\n- [Client](/api/client.html): Calls\n' },
  { path: '/api/llms-full.txt', text: '# API\n\nThe client.\n' },
];
const PAGES = [
  { url: `${ORIGIN}/`, markdown: '# Docs\n\nWelcome to the docs.\n' },
  { url: `${ORIGIN}/guide/intro.html`, markdown: '# Intro\n\nStart here.\n' },
  { url: `${ORIGIN}/api/`, markdown: '# API\n\nThe API overview.\n' },
  { url: `${ORIGIN}/api/client.html`, markdown: '# Client\n\nCreate a client.\n' },
  { url: `${ORIGIN}/guide/setup`, markdown: '# Setup\n\nNo extension.\n' },
  { url: `${ORIGIN}/search?q=x`, markdown: '# Search\n' },
  { url: 'http://other.test/a.html', markdown: '# Elsewhere\n' },
  { url: `${ORIGIN}/notes.md`, markdown: '# Notes\n' },
];
const kitOf = (layout: TwinLayout): Kit => buildKit({ origin: ORIGIN, files: FILES, pages: PAGES, layout });

describe('kit layout', () => {
  it('v2: llms files at their paths, page.md / index.md twins, snippets and a README; unpacks as laid out', () => {
    const kit = kitOf('md');
    expect([...kit.files.keys()].sort()).toEqual([
      'README.md',
      'site/api/client.md', 'site/api/index.md', 'site/api/llms-full.txt', 'site/api/llms.txt',
      'site/guide/intro.md', 'site/guide/setup.md', 'site/index.md', 'site/llms-full.txt', 'site/llms.txt',
      'snippets/_headers', 'snippets/apache.conf', 'snippets/directive.html', 'snippets/head.html', 'snippets/nginx.conf', 'snippets/vercel.json',
    ]);
    expect(kit.twins).toBe(5);
    expect(kit.skipped.map((s) => s.url)).toEqual([`${ORIGIN}/search?q=x`, 'http://other.test/a.html', `${ORIGIN}/notes.md`]);
    const unpacked = unzipSync(zipKit(kit));
    expect(Object.keys(unpacked).sort()).toEqual([...kit.files.keys()].sort());
    expect(strFromU8(unpacked['site/api/client.md'] ?? new Uint8Array())).toContain('Create a client.');
    expect(strFromU8(unpacked['README.md'] ?? new Uint8Array())).toMatch(/3 pages have no twin/);
  });

  it('v1: page.html.md and index.html.md (an extensionless page is page.md in both)', () => {
    const names = [...kitOf('html.md').files.keys()].filter((n) => n.endsWith('.md') && n.startsWith('site/')).sort();
    expect(names).toEqual(['site/api/client.html.md', 'site/api/index.html.md', 'site/guide/intro.html.md', 'site/guide/setup.md', 'site/index.html.md']);
    expect(twinPathOf(`${ORIGIN}/a/b.html`, 'md')).toBe('/a/b.md');
    expect(twinPathOf(`${ORIGIN}/a/`, 'html.md')).toBe('/a/index.html.md');
  });

  it('every twin starts with the llms.txt directive naming its llms.txt, as the directive checks read it', () => {
    const kit = kitOf('md');
    const client = kit.files.get('site/api/client.md') ?? '';
    expect(client.split('\n')[0]).toBe(`> For the complete documentation index, see [llms.txt](${ORIGIN}/api/llms.txt).`);
    expect(kit.files.get('site/guide/intro.md')?.split('\n')[0]).toContain(`[llms.txt](${ORIGIN}/llms.txt)`);
    expect(findTextDirective(client)).toMatchObject({ found: true, position: 0 });
    // The template snippet, once its placeholder is filled in, is a directive at the very top of a page.
    const page = `<html><body><nav><a href="/">Home</a></nav><main>${kit.snippets.directive.replace('href="LLMS_TXT"', 'href="/api/llms.txt"')}<h1>Client</h1><p>${'Create a client. '.repeat(50)}</p></main></body></html>`;
    const hit = findHtmlDirective(page, `${ORIGIN}/api/client.html`);
    expect(hit.found).toBe(true);
    expect(hit.position).toBeLessThan(0.1);
    expect(kit.snippets.directive).toContain('/api/… → /api/llms.txt');
    expect(kit.files.get('README.md')).toContain('snippets/directive.html');
  });

  it('each page is described by the deepest llms.txt above it', () => {
    const paths = FILES.map((f) => f.path).filter((p) => p.endsWith('/llms.txt'));
    expect(llmsFor('/api/client.html', paths)).toBe('/api/llms.txt');
    expect(llmsFor('/guide/intro.html', paths)).toBe('/llms.txt');
    expect(llmsFor('/apix/a.html', paths)).toBe('/llms.txt');
  });
});

describe('snippets as the platforms document them', () => {
  const kit = kitOf('md');
  const links = (value: string) => parseLinkHeader(value, ORIGIN);

  it('vercel.json: a headers array of { source, headers: [{ key, value }] }, one rule per page', () => {
    const json = JSON.parse(kit.snippets.vercel) as { headers: Array<{ source: string; headers: Array<{ key: string; value: string }> }> };
    expect(Object.keys(json)).toEqual(['headers']);
    for (const rule of json.headers) {
      expect(rule.source).toMatch(/^\//);
      expect(rule.headers.length).toBeGreaterThan(0);
      for (const h of rule.headers) expect(Object.keys(h).sort()).toEqual(['key', 'value']);
    }
    const client = json.headers.find((r) => r.source === '/api/client.html');
    expect(links(client?.headers[0]?.value ?? '').map((l) => `${l.rel.join(' ')} ${new URL(l.url).pathname}`)).toEqual(['describedby /api/llms.txt', 'alternate /api/client.md']);
  });

  it('_headers: path lines, each followed by indented "Name: value" lines', () => {
    const blocks: Array<{ path: string; headers: string[] }> = [];
    for (const line of kit.snippets.netlify.split('\n')) {
      if (line === '' || line.startsWith('#')) continue;
      if (/^\S/.test(line)) {
        expect(line).toMatch(/^\/\S*$/);
        blocks.push({ path: line, headers: [] });
      } else {
        expect(line).toMatch(/^ {2}[A-Za-z-]+: \S/);
        blocks.at(-1)?.headers.push(line.trim());
      }
    }
    expect(blocks.every((b) => b.headers.length > 0)).toBe(true);
    const root = blocks.find((b) => b.path === '/');
    expect(links(root?.headers[0]?.replace(/^Link: /, '') ?? '').map((l) => new URL(l.url).pathname)).toEqual(['/llms.txt', '/index.md']);
    expect(blocks.find((b) => b.path === '/index.md')?.headers).toEqual(['Content-Type: text/markdown; charset=utf-8']);
  });

  it('the <link> tags and the Apache rules name the nested llms.txt files', () => {
    expect(findPageLinks(`${ORIGIN}/`, `<head>${kit.snippets.html}</head>`, null).map((l) => l.rel)).toEqual(['describedby', 'markdown']);
    expect(kit.snippets.html).toContain('/api/… → /api/llms.txt');
    expect(kit.snippets.apache).toContain('SetEnvIf Request_URI "^/api/" SCOUT_LLMS=/api/llms.txt');
    expect(kit.snippets.apache.match(/<IfModule/g)).toHaveLength(kit.snippets.apache.match(/<\/IfModule>/g)?.length ?? -1);
  });
});

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));
if (!NGINX) console.warn('check-kit.test.ts: nginx is not installed, so the nginx snippet is not run (Debian: apt-get install nginx-light).');

describe.skipIf(!NGINX)(`the nginx snippet, run by nginx${NGINX ? '' : ' (skipped: nginx is not installed; apt-get install nginx-light)'}`, () => {
  let dir = '';
  let port = 0;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'scout-nginx-'));
    // nginx started as root serves as "nobody": the files must be readable by others (mkdtemp makes 0700).
    await chmod(dir, 0o755);
    port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Writes the kit's site with stub HTML pages and a config holding the snippet's two parts. */
  async function serve(layout: TwinLayout): Promise<() => void> {
    const root = join(dir, layout, 'site');
    const kit = kitOf(layout);
    for (const [name, text] of kit.files) {
      if (!name.startsWith('site/')) continue;
      await mkdir(dirname(join(dir, layout, name)), { recursive: true });
      await writeFile(join(dir, layout, name), text);
    }
    for (const page of ['/index.html', '/guide/intro.html', '/api/index.html', '/api/client.html']) await writeFile(join(root, page), `<!doctype html><title>${page}</title><p>${page}</p>`);
    const [http, server] = kit.snippets.nginx.split('# --- part 2: server { } ---');
    const prefix = join(dir, layout);
    await mkdir(join(prefix, 'logs'), { recursive: true });
    const conf = join(prefix, 'nginx.conf');
    const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${prefix}/tmp-${t};`).join(' ');
    await writeFile(conf, `pid ${prefix}/nginx.pid;\nerror_log ${prefix}/logs/error.log;\nevents {}\nhttp {\naccess_log off; ${temp}\ninclude /etc/nginx/mime.types;\n${http}\nserver {\nlisten 127.0.0.1:${port};\nroot ${root};\n${server}\n}\n}\n`);
    const test = spawnSync(NGINX ?? 'nginx', ['-t', '-c', conf, '-p', prefix], { encoding: 'utf8' });
    expect(test.stderr).toContain('syntax is ok');
    expect(test.status).toBe(0);
    execFileSync(NGINX ?? 'nginx', ['-c', conf, '-p', prefix]);
    await new Promise((r) => setTimeout(r, 300));
    return () => {
      spawnSync(NGINX ?? 'nginx', ['-s', 'stop', '-c', conf, '-p', prefix]);
    };
  }

  for (const layout of ['md', 'html.md'] as const) {
    it(`${layout} twins: nginx -t accepts it; pages get their Link headers; Accept: text/markdown gets the twin`, async () => {
      const stop = await serve(layout);
      try {
        const url = (path: string) => `http://127.0.0.1:${port}${path}`;
        const twin = layout === 'md' ? '/api/client.md' : '/api/client.html.md';
        const page = await fetch(url('/api/client.html'));
        expect(page.headers.get('content-type')).toContain('text/html');
        expect(page.status).toBe(200);
        const rels = findPageLinks(url('/api/client.html'), '', page.headers.get('link')).map((l) => `${l.rel} ${new URL(l.url).pathname}`);
        expect(rels).toEqual(['describedby /api/llms.txt', `markdown ${twin}`]);
        const home = findPageLinks(url('/'), '', (await fetch(url('/'))).headers.get('link')).map((l) => `${l.rel} ${new URL(l.url).pathname}`);
        expect(home).toEqual(['describedby /llms.txt', `markdown ${layout === 'md' ? '/index.md' : '/index.html.md'}`]);

        const negotiated = await fetch(url('/api/client.html'), { headers: { accept: 'text/markdown, text/html;q=0.5' } });
        expect(negotiated.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
        expect(await negotiated.text()).toBe(await readFile(join(dir, layout, 'site', twin), 'utf8'));
        const browser = await fetch(url('/api/client.html'), { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
        expect(browser.headers.get('content-type')).toContain('text/html');
        expect((await fetch(url(twin))).headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      } finally {
        stop();
      }
    });
  }
});
