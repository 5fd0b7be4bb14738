import madge from 'madge';
import { describe, expect, it } from 'vitest';

/**
 * The layering of lib/ (docs/design.md): folders depend one way, so each can be read, tested and
 * changed from the bottom up. madge reads the imports (type-only ones included) as the compiler
 * resolves them.
 */
const graph = async () =>
  (await madge('lib', { fileExtensions: ['ts'], tsConfig: 'tsconfig.json', detectiveOptions: { ts: { skipTypeImports: false } } })).obj();

/** lib/url/x.ts → "url"; a file at lib/'s top level (messaging.ts, the shared leaf utilities) → its own name. */
const folderOf = (file: string) => file.split('/')[0] ?? file;
/** What every folder may use: the store (schema, records, queries) and the protocol. */
const HUB = new Set(['store', 'messaging.ts']);

describe('lib/ imports', () => {
  it('no file imports itself back through others', async () => {
    const deps = await graph();
    const cycles = (await madge('lib', { fileExtensions: ['ts'], tsConfig: 'tsconfig.json' })).circular();
    expect(Object.keys(deps).length).toBeGreaterThan(100);
    expect(cycles).toEqual([]);
  });

  it('no two folders import each other (the hub files aside)', async () => {
    const edges = new Set<string>();
    for (const [file, imports] of Object.entries(await graph())) {
      for (const target of imports) {
        const [from, to] = [folderOf(file), folderOf(target)];
        if (from !== to && !HUB.has(from) && !HUB.has(to)) edges.add(`${from} → ${to}`);
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
});
