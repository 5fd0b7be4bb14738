// Lays out one SSG project for scripts/build-matrix.sh: the sanitized Markdown
// (kept in .cache/matrix/<id>/src as the ground truth of the built site), the
// config with a grouped sidebar, and .cache/matrix/<id>/entry.json.
//   node scripts/matrix/prepare.mjs <docusaurus|vitepress|starlight|rspress|mkdocs-material|mkdocs-readthedocs> <project dir> <served dir>
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { nodeCorpus, npmCorpus, rewriteMdLinks, NPM_GROUPS } from './corpora.mjs';

const [ssg, projectArg, rootArg] = process.argv.slice(2);
const project = resolve(projectArg);
const json = (v) => JSON.stringify(v, null, 2);
const yamlString = (s) => JSON.stringify(s); // a JSON string is a valid YAML scalar

function groupsOf(pages) {
  const groups = new Map();
  for (const p of pages.filter((p) => p.group)) groups.set(p.group, [...(groups.get(p.group) ?? []), p]);
  return groups;
}

/**
 * Writes each page's sanitized Markdown twice: into the project (where the SSG reads it)
 * and into .cache/matrix/<id>/src (the ground truth that `sources` points at).
 */
function emit(id, entry, pages, docsDir, file, urlOf) {
  const src = resolve('.cache/matrix', id, 'src');
  rmSync(src, { recursive: true, force: true });
  rmSync(docsDir, { recursive: true, force: true });
  const sources = {};
  const from = {};
  for (const p of pages) {
    for (const path of [join(src, file(p)), join(docsDir, file(p))]) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, p.text);
    }
    sources[urlOf(p)] = join(src, file(p));
    from[urlOf(p)] = p.from;
  }
  writeFileSync(resolve('.cache/matrix', id, 'entry.json'), json({ id, root: resolve(rootArg), ...entry, sources, from }));
}

/** Where build-matrix.sh moves the generator's own llms files (out of the served site). */
const generatorLlms = (id) => resolve('.cache/matrix', id, 'generator-llms');

const front = (fields) => `---\n${Object.entries(fields).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}: ${typeof v === 'string' ? yamlString(v) : v}`).join('\n')}\n---\n\n`;

function docusaurus() {
  const url = (slug) => (slug === 'documentation' ? '/docs/' : `/docs/${slug}`);
  const pages = nodeCorpus().map((p) => ({
    ...p,
    // Docusaurus takes the title from the H1; `documentation` is the docs' landing page.
    text: `${p.slug === 'documentation' ? front({ slug: '/' }) : ''}# ${p.title}\n\n${rewriteMdLinks(p.body, url)}`,
  }));
  const sidebar = [...groupsOf(pages)].map(([label, ps]) => ({ type: 'category', label, items: ps.map((p) => p.slug) }));
  // A Docusaurus site has a landing page; the docs start at /docs/.
  mkdirSync(join(project, 'src/pages'), { recursive: true });
  writeFileSync(join(project, 'src/pages/index.md'), '# Node.js API\n\nThe Node.js v18 API reference. [Read the documentation](/docs/).\n');
  writeFileSync(join(project, 'sidebars.js'), `export default ${json({ api: sidebar })};\n`);
  writeFileSync(join(project, 'docusaurus.config.js'), `export default ${json({
    title: 'Node.js API',
    tagline: 'Node.js v18 API reference, built with Docusaurus for the Scout generator matrix',
    url: 'http://docusaurus.matrix.test',
    baseUrl: '/',
    onBrokenLinks: 'warn',
    onBrokenAnchors: 'ignore',
    // .md files are CommonMark (Node's HTML comments and raw angle brackets are not MDX).
    markdown: { format: 'detect', hooks: { onBrokenMarkdownLinks: 'warn' } },
    presets: [['classic', { docs: { routeBasePath: 'docs', sidebarPath: './sidebars.js', editUrl: 'https://github.com/nodejs/node/edit/v18.x/doc/api/' }, blog: false }]],
    // The generator's own llms.txt for the head-to-head (#32), with its defaults; build-matrix.sh
    // moves its files out of the served site.
    plugins: ['docusaurus-plugin-llms'],
    themeConfig: {
      navbar: { title: 'Node.js API', items: [{ type: 'docSidebar', sidebarId: 'api', label: 'API', position: 'left' }, { href: 'https://github.com/nodejs/node', label: 'GitHub', position: 'right' }] },
      footer: { style: 'dark', copyright: 'Copyright © Node.js contributors. Built with Docusaurus.' },
    },
  })};\n`);
  emit('docusaurus', { family: 'Docusaurus 3', host: 'docusaurus.matrix.test', startPath: '/docs/', siteName: 'Node.js API', topSections: [...groupsOf(pages).keys()], cleanUrls: true, generatorLlms: generatorLlms('docusaurus') }, pages, join(project, 'docs'), (p) => `${p.slug}.md`, (p) => url(p.slug));
}

function starlight() {
  const url = (slug) => (slug === 'documentation' ? '/' : `/${slug}/`);
  // Starlight renders the frontmatter title as the H1, so the page body starts below it.
  const pages = nodeCorpus().map((p) => ({ ...p, text: `${front({ title: p.title })}${rewriteMdLinks(p.body, url)}` }));
  const file = (p) => (p.slug === 'documentation' ? 'index.md' : `${p.slug}.md`);
  const sidebar = [...groupsOf(pages)].map(([label, ps]) => ({ label, items: ps.map((p) => (p.slug === 'documentation' ? { label: p.title, link: '/' } : p.slug)) }));
  writeFileSync(join(project, 'astro.config.mjs'), `import { defineConfig } from 'astro/config';
import starlight from '@astrojs/starlight';
import starlightLlmsTxt from 'starlight-llms-txt';
export default defineConfig({
  site: 'http://starlight.matrix.test',
  // starlight-llms-txt: the generator's own llms.txt for the head-to-head (#32), with its defaults.
  integrations: [starlight({ ...${json({ title: 'Node.js Reference', editLink: { baseUrl: 'https://github.com/nodejs/node/edit/v18.x/doc/api/' }, sidebar })}, plugins: [starlightLlmsTxt()] })],
});
`);
  mkdirSync(join(project, 'src'), { recursive: true });
  writeFileSync(join(project, 'src/content.config.ts'), `import { defineCollection } from 'astro:content';
import { docsLoader } from '@astrojs/starlight/loaders';
import { docsSchema } from '@astrojs/starlight/schema';
export const collections = { docs: defineCollection({ loader: docsLoader(), schema: docsSchema() }) };
`);
  emit('starlight', { family: 'Starlight (Astro)', host: 'starlight.matrix.test', startPath: '/', siteName: 'Node.js Reference', topSections: [...groupsOf(pages).keys()], generatorLlms: generatorLlms('starlight') }, pages, join(project, 'src/content/docs'), file, (p) => url(p.slug));
}

/** npm's pages get their title back as an H1 (docs.npmjs.com renders it from the frontmatter). */
function npmPages() {
  return npmCorpus().map((p) => ({
    ...p,
    text: p.slug ? `${front({ title: p.title, description: p.description })}# ${p.title}\n\n${p.body}` : `# ${p.title}\n\n${p.body}`,
  }));
}

function vitepress() {
  const pages = npmPages();
  const url = (p) => (p.slug ? `/${p.slug}` : '/');
  const sidebar = [...groupsOf(pages)].map(([text, ps]) => ({ text, collapsed: false, items: ps.map((p) => ({ text: p.title, link: url(p) })) }));
  const config = { title: 'npm Docs', description: 'Documentation for the npm registry, website, and command-line interface', cleanUrls: true, ignoreDeadLinks: true, themeConfig: { nav: [{ text: 'CLI Commands', link: '/commands/npm' }], sidebar, editLink: { pattern: 'https://github.com/npm/cli/edit/latest/docs/lib/content/:path' }, socialLinks: [{ icon: 'github', link: 'https://github.com/npm/cli' }] } };
  emit('vitepress', { family: 'VitePress', host: 'vitepress.matrix.test', startPath: '/', siteName: 'npm Docs', topSections: Object.values(NPM_GROUPS), cleanUrls: true, generatorLlms: generatorLlms('vitepress') }, pages, join(project, 'docs'), (p) => `${p.slug || 'index'}.md`, url);
  mkdirSync(join(project, 'docs/.vitepress'), { recursive: true });
  // vitepress-plugin-llms, the generator's own llms.txt for the head-to-head (#32), with its defaults
  // but for the hidden "Are you an LLM?" text it writes into the start page. It also adds
  // <link rel="alternate" type="text/markdown"> and rel="describedby" to every page's head, for
  // files build-matrix.sh moves out of the served site: keepHead gives the renderer back the head
  // it had without the plugin, so the served pages stay what they were.
  writeFileSync(join(project, 'docs/.vitepress/config.mjs'), `import llmstxt from 'vitepress-plugin-llms';

function keepHead() {
  let site;
  let transformHead;
  return {
    name: 'scout-matrix:keep-head',
    enforce: 'post',
    configResolved(resolved) {
      if (site === undefined && resolved.vitepress) {
        site = resolved.vitepress;
        transformHead = site.transformHead;
      }
    },
    generateBundle() {
      if (site) site.transformHead = transformHead;
    },
  };
}

export default { ...${json(config)}, vite: { plugins: [llmstxt({ injectLLMHint: false }), keepHead()] } };
`);
}

/**
 * MkDocs, with Material or one of MkDocs' own themes (readthedocs). Built-in themes load
 * highlight.js from a CDN unless highlightjs is off: no build may phone home.
 */
function mkdocs(id = 'mkdocs-material') {
  const builtIn = id === 'mkdocs-readthedocs';
  const host = builtIn ? 'mkdocs-readthedocs.matrix.test' : 'mkdocs.matrix.test';
  const pages = npmPages();
  const url = (p) => (p.slug ? `/${p.slug}/` : '/');
  const nav = [{ Home: 'index.md' }, ...[...groupsOf(pages)].map(([group, ps]) => ({ [group]: ps.map((p) => ({ [p.title]: `${p.slug}.md` })) }))];
  // A JSON document is valid YAML.
  writeFileSync(join(project, 'mkdocs.yml'), json({
    site_name: 'npm CLI',
    site_url: `http://${host}/`,
    repo_url: 'https://github.com/npm/cli',
    edit_uri: 'edit/latest/docs/lib/content/',
    docs_dir: 'docs',
    site_dir: 'site',
    // font: false — no request to a font CDN from the built pages.
    theme: builtIn ? { name: 'readthedocs', highlightjs: false } : { name: 'material', font: false, features: ['navigation.sections', 'navigation.footer'] },
    markdown_extensions: ['tables', 'admonition', 'toc', { 'pymdownx.superfences': {} }],
    nav,
  }));
  emit(id, { family: builtIn ? 'MkDocs (readthedocs theme)' : 'MkDocs (Material)', host, startPath: '/', siteName: 'npm CLI', topSections: Object.values(NPM_GROUPS) }, pages, join(project, 'docs'), (p) => `${p.slug || 'index'}.md`, url);
}

function rspress() {
  const pages = npmPages();
  const url = (p) => (p.slug ? `/${p.slug}` : '/');
  const sidebar = { '/': [...groupsOf(pages)].map(([text, ps]) => ({ text, collapsible: false, items: ps.map((p) => ({ text: p.title, link: url(p) })) })) };
  // llms: Rspress's own llms.txt (SSG-MD), built in, for the head-to-head (#32); build-matrix.sh
  // moves its files out of the served site. llmsUI: false keeps the pages as they are without it
  // (no hidden "For AI agents" hint, no rel=alternate links to the .md files, no copy button).
  // npm's docs link a few pages that are not in the package: no dead-link check.
  const config = { root: 'docs', outDir: 'doc_build', title: 'npm Docs', description: 'Documentation for the npm registry, website, and command-line interface', llms: true, markdown: { link: { checkDeadLinks: false } }, themeConfig: { llmsUI: false, sidebar, nav: [{ text: 'CLI Commands', link: '/commands/npm' }], socialLinks: [{ icon: 'github', mode: 'link', content: 'https://github.com/npm/cli' }], editLink: { docRepoBaseUrl: 'https://github.com/npm/cli/edit/latest/docs/lib/content/' } } };
  emit('rspress', { family: 'Rspress', host: 'rspress.matrix.test', startPath: '/', siteName: 'npm Docs', topSections: Object.values(NPM_GROUPS), generatorLlms: generatorLlms('rspress') }, pages, join(project, 'docs'), (p) => `${p.slug || 'index'}.md`, (p) => (p.slug ? `/${p.slug}.html` : '/'));
  writeFileSync(join(project, 'rspress.config.mjs'), `export default ${json(config)};\n`);
}

mkdirSync(resolve('.cache/matrix', ssg), { recursive: true });
({ docusaurus, starlight, vitepress, rspress, 'mkdocs-material': () => mkdocs(), 'mkdocs-readthedocs': () => mkdocs('mkdocs-readthedocs') })[ssg]();
