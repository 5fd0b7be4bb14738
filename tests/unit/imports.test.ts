import madge from 'madge';
import { describe, expect, it } from 'vitest';

/**
 * The layering of lib/ (docs/design.md): folders depend one way, so each can be read, tested and
 * changed from the bottom up. madge reads the imports (type-only ones included) as the compiler
 * resolves them.
 */
let read: Promise<Record<string, string[]>> | undefined;
/** Read once per file run: each read parses all of lib/ (seconds on a busy machine). */
const graph = () => {
  read ??= madge('lib', { fileExtensions: ['ts'], tsConfig: 'tsconfig.json', detectiveOptions: { ts: { skipTypeImports: false } } }).then((m) => m.obj());
  return read;
};

/** lib/url/x.ts → "url"; a file at lib/'s top level (messaging.ts, the shared leaf utilities) → its own name. */
const folderOf = (file: string) => file.split('/')[0] ?? file;
/** The files at lib/'s top level that import nothing of ours (the protocol, messaging.ts, is not one). */
const LEAVES = new Set(['format.ts', 'tokens.ts', 'hash.ts', 'whitespace.ts']);

describe('lib/ imports', () => {
  it('no file imports itself back through others', async () => {
    const deps = await graph();
    const cycles = (await madge('lib', { fileExtensions: ['ts'], tsConfig: 'tsconfig.json' })).circular();
    expect(Object.keys(deps).length).toBeGreaterThan(100);
    expect(cycles).toEqual([]);
  }, 90_000); // two reads of lib/ (with and without type imports): 30 s when the machine is shared

  it('no two folders import each other, the store included', async () => {
    const edges = new Set<string>();
    for (const [file, imports] of Object.entries(await graph())) {
      for (const target of imports) {
        const [from, to] = [folderOf(file), folderOf(target)];
        if (from !== to) edges.add(`${from} → ${to}`);
      }
    }
    const both = [...edges].filter((e) => {
      const [from, to] = e.split(' → ');
      return edges.has(`${to} → ${from}`);
    });
    expect(both).toEqual([]);
  });

  it('fetch and url import nothing above them', async () => {
    const above = Object.entries(await graph()).flatMap(([file, imports]) => {
      const folder = folderOf(file);
      if (folder !== 'fetch' && folder !== 'url') return [];
      // fetch may use url (below it) and the leaf utilities; url uses nothing of ours.
      const allowed = folder === 'fetch' ? new Set(['fetch', 'url', 'format.ts']) : new Set(['url']);
      return imports.filter((t) => !allowed.has(folderOf(t))).map((t) => `${file} → ${t}`);
    });
    expect(above).toEqual([]);
  });
  it('the store imports nothing of ours but url/ and the leaf utilities', async () => {
    // The store is the bottom layer the rest is written on: its records' shapes live in it
    // (lib/store/records/), so a schema change never waits on a folder above it.
    const deps = await graph();
    const outside = Object.entries(deps).flatMap(([file, imports]) => {
      if (folderOf(file) !== 'store') return [];
      return imports.filter((t) => {
        const folder = folderOf(t);
        return folder !== 'store' && folder !== 'url' && !LEAVES.has(folder);
      }).map((t) => `${file} → ${t}`);
    });
    expect(Object.keys(deps).filter((f) => f.startsWith('store/records/')).length).toBeGreaterThanOrEqual(4);
    expect(outside).toEqual([]);
  });
});
