/**
 * The exact configuration that adds `scout mcp <folder>` to a coding agent, as the Output tab's
 * "Use with your agent" shows it: Claude Code's command, Cursor's `.cursor/mcp.json` and VS Code's
 * `.vscode/mcp.json`. The server runs as `node <Scout's checkout>/cli/bin.mjs mcp <docs folder>`
 * (bin.mjs loads Scout's TypeScript itself, so it works from any folder).
 */

export interface AgentConfigInput {
  /** The site's host ("docs.python.org"): names the server, so several sites can be added. */
  host: string;
  /** Where Scout is checked out (the folder with package.json). */
  scoutFolder: string;
  /** Where the docs folder was unpacked (the folder holding manifest.json). */
  docsFolder: string;
}

export interface AgentConfigs {
  serverName: string;
  claudeCode: string;
  cursor: string;
  vscode: string;
}

/** "docs.python.org" → "scout-docs-python-org": letters, digits and dashes, as every agent accepts in a server name. */
export function serverName(host: string): string {
  const slug = host.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|(?<!-)-+$/g, '');
  return `scout-${slug || 'docs'}`.slice(0, 60);
}

/** A path for a POSIX shell: as is when it needs no quoting, else in single quotes. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.split("'").join("'\\''")}'`;
}

/** `path` without the slashes or backslashes at its end (a loop: a trailing run is matched where it starts). */
function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 1 && (path.charAt(end - 1) === '/' || path.charAt(end - 1) === '\\')) end--;
  return path.slice(0, end);
}

/** The three configurations for `input`, paths joined with `/` (Windows accepts it). */
export function agentConfigs(input: AgentConfigInput): AgentConfigs {
  const name = serverName(input.host);
  const bin = `${withoutTrailingSlashes(input.scoutFolder)}/cli/bin.mjs`;
  const args = [bin, 'mcp', input.docsFolder];
  const claudeCode = `claude mcp add ${name} -- node ${args.map(shellWord).join(' ')}`;
  const cursor = JSON.stringify({ mcpServers: { [name]: { command: 'node', args } } }, null, 2);
  const vscode = JSON.stringify({ servers: { [name]: { type: 'stdio', command: 'node', args } } }, null, 2);
  return { serverName: name, claudeCode, cursor, vscode };
}
