// The Markdown corpora the SSG sites of the matrix are built from. Each page comes
// back as { slug, group, title, description?, body, from }: body is the Markdown
// without its H1 (each SSG puts the title back the way it expects), from is the file
// it was read from.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';

const NODE_API = resolve('.cache/docs/nodejs-doc/usr/share/doc/nodejs/api');
const NPM_DOCS = resolve('.cache/matrix-build/corpus/node_modules/npm');

// Node's own nav is one flat list; a docs site built from it gets groups, as a
// real SSG site would. A module missing here lands in 'Core utilities'.
export const NODE_GROUPS = {
  'Getting started': ['documentation', 'synopsis', 'cli', 'globals', 'errors', 'deprecations'],
  Modules: ['modules', 'esm', 'module', 'packages', 'corepack'],
  'Core utilities': ['assert', 'buffer', 'console', 'events', 'intl', 'os', 'path', 'process', 'punycode', 'querystring', 'readline', 'repl', 'string_decoder', 'timers', 'tty', 'url', 'util'],
  'Files, streams and networking': ['fs', 'stream', 'webstreams', 'zlib', 'dgram', 'dns', 'http', 'http2', 'https', 'net', 'tls', 'crypto', 'webcrypto'],
  'Concurrency and diagnostics': ['async_context', 'async_hooks', 'child_process', 'cluster', 'worker_threads', 'diagnostics_channel', 'inspector', 'debugger', 'perf_hooks', 'report', 'tracing', 'test', 'domain', 'permissions'],
  'Runtime and native code': ['v8', 'vm', 'wasi', 'addons', 'n-api', 'embedding', 'single-executable-applications'],
};

function need(dir, hint) {
  if (!existsSync(dir)) throw new Error(`${dir} is missing: ${hint}`);
  return dir;
}

function splitH1(text) {
  const m = /^# (.+)\n+/m.exec(text);
  if (!m || text.slice(0, m.index).trim()) throw new Error('no leading H1');
  return { title: m[1].trim(), body: text.slice(m.index + m[0].length) };
}

/** Node 18's API docs (Debian nodejs-doc), in NODE_GROUPS order. */
export function nodeCorpus() {
  const dir = need(NODE_API, 'run bash scripts/fetch-docs.sh');
  const slugs = readdirSync(dir).filter((f) => f.endsWith('.md.gz')).map((f) => f.slice(0, -6));
  const order = Object.entries(NODE_GROUPS).flatMap(([group, list]) => list.map((slug) => ({ slug, group })));
  for (const slug of slugs) if (!order.some((o) => o.slug === slug)) order.push({ slug, group: 'Core utilities' });
  return order.filter((o) => slugs.includes(o.slug)).map(({ slug, group }) => {
    const from = join(dir, `${slug}.md.gz`);
    return { slug, group, ...splitH1(gunzipSync(readFileSync(from)).toString('utf8')), from };
  });
}

export const NPM_GROUPS = { commands: 'CLI Commands', 'configuring-npm': 'Configuring npm', 'using-npm': 'Using npm' };

function frontmatter(text) {
  const m = /^---\n([\s\S]*?)\n---\n+/.exec(text);
  if (!m) return { meta: {}, body: text };
  const meta = Object.fromEntries(m[1].split('\n').map((l) => /^(\w+):\s*(.*)$/.exec(l)).filter(Boolean).map((x) => [x[1], x[2].trim()]));
  return { meta, body: text.slice(m[0].length) };
}

/** npm's CLI docs (docs/content in the npm package): README first, then the three groups as docs.npmjs.com orders them. */
export function npmCorpus() {
  const dir = need(NPM_DOCS, 'npm ci in .cache/matrix-build/corpus');
  const readme = join(dir, 'README.md');
  const pages = [{ slug: '', group: '', ...splitH1(readFileSync(readme, 'utf8')), from: readme }];
  for (const [folder, group] of Object.entries(NPM_GROUPS)) {
    const files = readdirSync(join(dir, 'docs/content', folder)).filter((f) => f.endsWith('.md')).sort();
    // docs.npmjs.com lists `npm` itself first among the commands.
    files.sort((a, b) => Number(b === 'npm.md') - Number(a === 'npm.md'));
    for (const file of files) {
      const from = join(dir, 'docs/content', folder, file);
      const { meta, body } = frontmatter(readFileSync(from, 'utf8'));
      pages.push({ slug: `${folder}/${file.slice(0, -3)}`, group, title: meta.title, description: meta.description, body, from });
    }
  }
  return pages;
}

/** Node's links to sibling pages (`fs.md#anchor`, `fs.html`, also in reference definitions) → the page's URL on the built site. */
export function rewriteMdLinks(body, url) {
  return body
    .replace(/\]\(([a-z0-9_-]+)\.(?:md|html)(#[^)\s]*)?\)/g, (_, slug, hash = '') => `](${url(slug)}${hash})`)
    .replace(/^(\[[^\]\n]+\]:\s*)([a-z0-9_-]+)\.(?:md|html)(#\S*)?/gm, (_, def, slug, hash = '') => `${def}${url(slug)}${hash}`);
}
