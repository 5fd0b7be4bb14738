/** Scout's version, from package.json: what `scout mcp` reports and a docs folder's manifest says made it. */
// Imported, not read from disk beside this file: the precompiled CLI (scripts/build-cli.mjs) runs from .output/cli/.
import packageJson from '../package.json' with { type: 'json' };

export const SCOUT_VERSION: string = packageJson.version;
