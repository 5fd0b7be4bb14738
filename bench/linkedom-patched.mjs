/**
 * Node loader hooks that apply the extension bundle's linkedom patches (scripts/linkedom-*.ts,
 * applied by Vite at build time) to linkedom in Node, so a benchmark or an output comparison in
 * Node runs the parser the extension ships. Use after tsx:
 *   node --import tsx --import ./bench/linkedom-patched.mjs bench/profile.ts --node ...
 */
import { register } from 'node:module';

register('./linkedom-patched-hooks.ts', import.meta.url);
