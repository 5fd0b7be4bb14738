import { check } from 'recheck';
import { describe, expect, it } from 'vitest';
import { findPatterns } from './redos-patterns';

/**
 * No regular expression in Scout's own code can be made to backtrack super-linearly (#28): pages,
 * llms.txt files, sitemaps and model answers are untrusted and can be megabytes, and one
 * exponential or polynomial pattern froze a crawl and the side panel. recheck decides for each
 * pattern (its automaton analysis where it applies, else fuzzing with a fixed seed, so every run
 * gives the same verdict); it uses its native build when the platform has one and its pure
 * JavaScript build otherwise, never a JVM.
 */
const DIRS = ['lib', 'cli', 'components', 'entrypoints'];

/**
 * Patterns that only ever see short, bounded input, each with why. Keep this small: a pattern that
 * can see page text is fixed, not listed.
 */
const ALLOWED: Record<string, string> = {};

describe('regular expressions', () => {
  const patterns = findPatterns(process.cwd(), DIRS);

  it('are all found (literals and RegExp with a literal source)', () => {
    // A floor, so that a broken finder cannot pass the test below by finding nothing.
    expect(patterns.length).toBeGreaterThan(300);
    expect(patterns.some((p) => p.where.startsWith('lib/convert/markdown.ts:'))).toBe(true);
    expect(patterns.some((p) => p.where.startsWith('components/'))).toBe(true);
  });

  it('none backtracks super-linearly (recheck)', { timeout: 600_000 }, async () => {
    const unsafe: string[] = [];
    for (const p of patterns) {
      const key = `/${p.source}/${p.flags}`;
      if (ALLOWED[key]) continue;
      const result = await check(p.source, p.flags, { randomSeed: 1, timeout: 30_000 });
      if (result.status === 'safe') continue;
      const why =
        result.status === 'vulnerable'
          ? `${result.complexity.summary}, e.g. ${result.attack.pattern.slice(0, 80)}`
          : `${result.status}: ${JSON.stringify(result.error)}`;
      unsafe.push(`${p.where} ${key} — ${why}`);
    }
    expect(unsafe, `patterns that can backtrack super-linearly:\n${unsafe.join('\n')}`).toEqual([]);
  });
});
