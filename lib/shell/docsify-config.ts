/**
 * docsify's configuration, read from the shell's inline script as text. The script is never run:
 * a docsify site declares `window.$docsify = { basePath: '/docs/', loadSidebar: true, … }` with
 * literal values in practice, so the few keys Scout needs are read with patterns.
 */

/** The docsify settings that decide where the Markdown lives. */
export interface DocsifyConfig {
  /** Where the Markdown files are, relative to the shell page (or absolute). Default: the shell's folder. */
  basePath?: string;
  /** The file for the home route `#/` (default README.md). */
  homepage?: string;
  /** The sidebar file: true means `_sidebar.md`; a string names another file. */
  loadSidebar?: boolean | string;
  /** The site's name (shown in docsify's sidebar). */
  name?: string;
  /** Links in Markdown resolve against the current file's folder (docsify's `relativePath`). */
  relativePath?: boolean;
}

const KEY = (name: string) => `["']?${name}["']?\\s*:\\s*`;
const STRING = `(?:'([^'\\n]*)'|"([^"\\n]*)"|\`([^\`\\n]*)\`)`;

function stringValue(config: string, name: string): string | undefined {
  const match = new RegExp(`${KEY(name)}${STRING}`).exec(config);
  return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
}

function booleanValue(config: string, name: string): boolean | undefined {
  const match = new RegExp(`${KEY(name)}(true|false|!0|!1)\\b`).exec(config);
  return match ? match[1] === 'true' || match[1] === '!0' : undefined;
}

/**
 * The config in `window.$docsify = {…}` (or `$docsify = …`) of the given inline script text, or
 * null when there is none. Keys set to anything but a literal (a function, a variable) are left
 * at docsify's defaults.
 */
export function readDocsifyConfig(script: string): DocsifyConfig | null {
  const start = /\$docsify\s*=\s*\{/.exec(script);
  if (!start) return null;
  // The object literal up to its matching brace (strings with braces in them are rare in configs).
  let depth = 0;
  let end = script.length;
  for (let i = start.index + start[0].length - 1; i < script.length; i++) {
    const c = script[i];
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      end = i + 1;
      break;
    }
  }
  const body = script.slice(start.index, end);
  const config: DocsifyConfig = {};
  const basePath = stringValue(body, 'basePath');
  if (basePath !== undefined) config.basePath = basePath;
  const homepage = stringValue(body, 'homepage');
  if (homepage) config.homepage = homepage;
  const name = stringValue(body, 'name');
  if (name) config.name = name;
  const sidebar = booleanValue(body, 'loadSidebar') ?? stringValue(body, 'loadSidebar');
  if (sidebar !== undefined && sidebar !== '') config.loadSidebar = sidebar;
  const relative = booleanValue(body, 'relativePath');
  if (relative !== undefined) config.relativePath = relative;
  return config;
}
