/**
 * The snippets that serve a publishing kit (#19 part 2): `<link>` tags for a page template, and
 * `Link:` header rules for nginx, Apache, Netlify (`_headers`) and Vercel (`vercel.json`). Each
 * names the llms.txt that covers a page (the most specific folder's, as the spec says) with
 * `rel="describedby"`, and the page's Markdown twin with `rel="alternate" type="text/markdown"`.
 * nginx and Apache also answer `Accept: text/markdown` with the twin.
 */

/** Where twins live: v1 appends `.md` (`page.html.md`, `index.html.md`); v2 replaces the extension (`page.md`, `index.md`). */
export type TwinLayout = 'html.md' | 'md';

export interface SnippetInput {
  /** Paths of the llms.txt files published, e.g. ['/llms.txt', '/api/llms.txt']. */
  llmsPaths: string[];
  /** Each page's path and its twin's path on the site. */
  pages: Array<{ path: string; twin: string }>;
  layout: TwinLayout;
}

export interface Snippets {
  html: string;
  /** The llms.txt directive for the top of every page's main content (AFDocs' llms-txt-directive). */
  directive: string;
  nginx: string;
  apache: string;
  netlify: string;
  vercel: string;
}

/** Folders with their own llms.txt, deepest first: the first match is the most specific. */
function folders(llmsPaths: string[]): Array<{ dir: string; file: string }> {
  return llmsPaths
    .map((file) => ({ dir: file.slice(0, file.lastIndexOf('/') + 1), file }))
    .filter((f) => f.dir !== '/')
    .sort((a, b) => b.dir.length - a.dir.length || a.dir.localeCompare(b.dir));
}

/** The llms.txt that covers a page path. */
export function llmsFor(path: string, llmsPaths: string[]): string {
  return folders(llmsPaths).find((f) => path.startsWith(f.dir))?.file ?? '/llms.txt';
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const describedby = (file: string) => `<${file}>; rel="describedby"; type="text/plain"`;
const alternate = (twin: string) => `<${twin}>; rel="alternate"; type="text/markdown"`;

function html(input: SnippetInput): string {
  const nested = folders(input.llmsPaths);
  const example = input.pages.find((p) => p.path.endsWith('.html')) ?? input.pages[0];
  const twinExample = example ? `${example.path} → ${example.twin}` : `/guide/intro.html → ${input.layout === 'md' ? '/guide/intro.md' : '/guide/intro.html.md'}`;
  const folderLines = nested.length
    ? ['     and LLMS_TXT with the llms.txt of its folder:', ...nested.map((f) => `       ${f.dir}… → ${f.file}`), '       anything else → /llms.txt']
    : [];
  return [
    "<!-- In the <head> of every page. Replace PAGE_TWIN with the page's twin: ",
    `     ${twinExample}`,
    ...folderLines,
    '-->',
    `<link rel="describedby" type="text/plain" href="${nested.length ? 'LLMS_TXT' : '/llms.txt'}">`,
    '<link rel="alternate" type="text/markdown" href="PAGE_TWIN">',
    '',
  ].join('\n');
}

/**
 * The directive, for the top of the page's main content: agents that read only the page's text
 * (never its <head> or headers) learn where the index is. It must stay in the page's text: a
 * display:none element is dropped by many converters, so hide it visually if at all.
 */
function directive(input: SnippetInput): string {
  const nested = folders(input.llmsPaths);
  return [
    '<!-- At the top of every page\'s main content (inside <main> or the article), before or right after the first heading.',
    ...(nested.length ? ['     Replace LLMS_TXT with the llms.txt of the page\'s folder:', ...nested.map((f) => `       ${f.dir}… → ${f.file}`), '       anything else → /llms.txt'] : []),
    '     Keep it in the text: converters drop display:none elements. The kit\'s twins start with the same line. -->',
    `<blockquote class="llms-txt-directive"><p>For the complete documentation index, see <a href="${nested.length ? 'LLMS_TXT' : '/llms.txt'}">llms.txt</a>.</p></blockquote>`,
    '',
  ].join('\n');
}

/** The directive as the first line of a twin, naming the llms.txt that covers the page by its full address. */
export const twinDirective = (llmsUrl: string) => `> For the complete documentation index, see [llms.txt](${llmsUrl}).`;

// nginx's braced variable (the capture directly followed by "index"), not a template placeholder.
const NGINX_DIR = '$' + '{scout_dir}';

function nginx(input: SnippetInput): string {
  const v1 = input.layout === 'html.md';
  return [
    '# llms.txt Scout: Link headers and Markdown twins for nginx.',
    '# Part 1 goes in the http { } block, part 2 in the site\'s server { } block.',
    '',
    '# --- part 1: http { } ---',
    '# The llms.txt that covers a URI: the deepest folder that has one.',
    'map $uri $scout_llms {',
    '    default /llms.txt;',
    ...folders(input.llmsPaths).map((f) => `    "~^${escapeRegex(f.dir)}" ${f.file};`),
    '}',
    `# A page's Markdown twin (${v1 ? 'v1: page.html.md, index.html.md' : 'v2: page.md, index.md'}); empty for everything else.`,
    'map $uri $scout_twin {',
    '    default "";',
    `    "~^(?<scout_page>.+)\\.html$" ${v1 ? '$scout_page.html.md' : '$scout_page.md'};`,
    `    "~^(?<scout_dir>.*/)$" ${NGINX_DIR}${v1 ? 'index.html.md' : 'index.md'};`,
    '}',
    'map $scout_twin $scout_alternate {',
    '    "" "";',
    '    default "<$scout_twin>; rel=\\"alternate\\"; type=\\"text/markdown\\"";',
    '}',
    '# Requests that prefer Markdown (Accept: text/markdown first) get the twin.',
    'map $http_accept $scout_wants_markdown {',
    '    default 0;',
    '    "~*^\\s*text/markdown" 1;',
    '}',
    '',
    '# --- part 2: server { } ---',
    'add_header Link "<$scout_llms>; rel=\\"describedby\\"; type=\\"text/plain\\"" always;',
    'add_header Link $scout_alternate;',
    'add_header Vary Accept;',
    'location ~ \\.md$ {',
    '    types { }',
    '    default_type "text/markdown; charset=utf-8";',
    '    add_header Vary Accept;',
    '}',
    'location ~ (\\.html|/)$ {',
    '    # "rewrite … last" is one of the things "if" is safe for in a location.',
    '    if ($scout_wants_markdown) {',
    '        rewrite ^ $scout_twin last;',
    '    }',
    '}',
    '',
  ].join('\n');
}

function apache(input: SnippetInput): string {
  const v1 = input.layout === 'html.md';
  const nested = folders(input.llmsPaths).reverse();
  return [
    '# llms.txt Scout: Link headers and Markdown twins for Apache 2.4 (virtual host or .htaccess).',
    '# Needs mod_headers, mod_setenvif and mod_rewrite.',
    'AddType "text/markdown; charset=utf-8" .md',
    '<IfModule mod_setenvif.c>',
    '    # The llms.txt that covers a URI: later lines are deeper folders and win.',
    '    SetEnvIf Request_URI "^" SCOUT_LLMS=/llms.txt',
    ...nested.map((f) => `    SetEnvIf Request_URI "^${escapeRegex(f.dir)}" SCOUT_LLMS=${f.file}`),
    `    SetEnvIf Request_URI "^(.+)\\.html$" SCOUT_TWIN=$1${v1 ? '.html.md' : '.md'}`,
    `    SetEnvIf Request_URI "^(.*/)$" SCOUT_TWIN=$1${v1 ? 'index.html.md' : 'index.md'}`,
    '</IfModule>',
    '<IfModule mod_headers.c>',
    '    Header always add Link "<%{SCOUT_LLMS}e>; rel=\\"describedby\\"; type=\\"text/plain\\""',
    '    Header add Link "<%{SCOUT_TWIN}e>; rel=\\"alternate\\"; type=\\"text/markdown\\"" env=SCOUT_TWIN',
    '    Header merge Vary Accept',
    '</IfModule>',
    '<IfModule mod_rewrite.c>',
    '    # Requests that prefer Markdown (Accept: text/markdown first) get the twin.',
    '    RewriteEngine On',
    '    RewriteCond %{HTTP:Accept} ^\\s*text/markdown [NC]',
    `    RewriteRule ^(.+)\\.html$ $1${v1 ? '.html.md' : '.md'} [L]`,
    '    RewriteCond %{HTTP:Accept} ^\\s*text/markdown [NC]',
    `    RewriteRule ^(.*/)?$ $1${v1 ? 'index.html.md' : 'index.md'} [L]`,
    '</IfModule>',
    '',
  ].join('\n');
}

/**
 * Netlify `_headers`: a path line, then indented `Name: value` lines (docs.netlify.com, "Custom
 * headers"). Values cannot use the path, so each page has its own block, and each twin one for its
 * type; rules for one path are merged, so a page never gets two describedby links.
 */
function netlify(input: SnippetInput): string {
  const pages = input.pages.map((p) => `${p.path}\n  Link: ${describedby(llmsFor(p.path, input.llmsPaths))}, ${alternate(p.twin)}`);
  const twins = input.pages.map((p) => `${p.twin}\n  Content-Type: text/markdown; charset=utf-8`);
  return ['# llms.txt Scout: Link headers for Netlify (save as _headers in the publish folder).', ...pages, ...twins, ''].join('\n');
}

/** Vercel `vercel.json`: `headers` rules, each a path-to-regexp `source` and its `headers`. */
function vercel(input: SnippetInput): string {
  // path-to-regexp reads ( ) : * + ? { } as syntax: escaped so each page path matches itself only.
  const source = (path: string) => path.replace(/[()[\]{}:*+?!\\]/g, '\\$&');
  const headers = [
    ...input.pages.map((p) => ({ source: source(p.path), headers: [{ key: 'Link', value: `${describedby(llmsFor(p.path, input.llmsPaths))}, ${alternate(p.twin)}` }] })),
    { source: '/(.*)\\.md', headers: [{ key: 'Content-Type', value: 'text/markdown; charset=utf-8' }] },
  ];
  return `${JSON.stringify({ headers }, null, 2)}\n`;
}

/** Every snippet for the kit's files. */
export function buildSnippets(input: SnippetInput): Snippets {
  return { html: html(input), directive: directive(input), nginx: nginx(input), apache: apache(input), netlify: netlify(input), vercel: vercel(input) };
}
