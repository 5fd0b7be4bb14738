/** Scout's version, from package.json: what `scout mcp` reports and a docs folder's manifest says made it. */
import { readFileSync } from 'node:fs';

export const SCOUT_VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
