import { describe, expect, it } from 'vitest';
import { rowCopy } from '../../lib/store/memory/page-outputs';
import { seededRandom as random } from '../fixtures/seeded-random';

/** A row of the shapes a page row holds: strings, numbers, booleans, undefined, nested objects and arrays. */
function value(r: () => number, depth: number): unknown {
  const pick = Math.floor(r() * (depth > 2 ? 5 : 8));
  if (pick === 0) return `text ${Math.floor(r() * 1000)}`;
  if (pick === 1) return Math.floor(r() * 1e6) / 7;
  if (pick === 2) return r() < 0.5;
  if (pick === 3) return undefined;
  if (pick === 4) return null;
  if (pick === 5 || pick === 6) {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < 1 + Math.floor(r() * 4); i++) out[`f${Math.floor(r() * 9)}`] = value(r, depth + 1);
    return out;
  }
  const list = Array.from({ length: Math.floor(r() * 4) }, () => value(r, depth + 1));
  if (list.length > 2 && r() < 0.3) delete list[1];
  return list;
}

describe('rowCopy', () => {
  it('gives what structuredClone gives, and a copy changed leaves the row as it was', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const r = random(seed);
      const row: Record<string, unknown> = { key: `k${seed}`, fullTokens: { title: 'T', count: seed }, bodyCounts: [{ f: 'a.b', n: 1 }], extra: value(r, 0) };
      // The Markdown the spill keeps on disk is an accessor, read when the row is copied.
      Object.defineProperty(row, 'markdown', { get: () => `# Page ${seed}`, enumerable: true, configurable: true });
      const before = structuredClone(row);
      const copied = rowCopy(row);
      expect(copied).toStrictEqual(before);
      expect(Object.keys(copied)).toEqual(Object.keys(before));
      (copied.fullTokens as { count: number }).count = -1;
      (copied.bodyCounts as [{ n: number }])[0].n = -1;
      expect(row.fullTokens).toEqual(before.fullTokens);
      expect(row.bodyCounts).toEqual(before.bodyCounts);
    }
  });
});
