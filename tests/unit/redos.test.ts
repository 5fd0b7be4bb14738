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

/**
 * Patterns built at run time, which no static check can read, by file: each with why its pattern
 * cannot backtrack. A new one fails the test until it is named here (or made a constant).
 */
const BUILT_AT_RUN_TIME: Record<string, string> = {
  'lib/describe/endpoint.ts': 'the user’s own API key, escaped: a literal between two lookarounds',
  'lib/discovery/page-links.ts': 'a copy of the literal HEAD_SCAN (checked above), and `</name[\\s>]` for a tag name HEAD_SCAN matched: literals',
  'lib/shell/docsify-config.ts': 'KEY(name) + a quoted string or a boolean, for the fixed option names Scout reads; checked below for one name',
  'lib/url/private-network-rules.ts': 'Scout’s own block rules’ regexFilter (escaped addresses), evaluated for tests',
};

/** docsify-config.ts's patterns with one of its names, as it builds them. */
const DOCSIFY_KEY = `["']?basePath["']?\\s*:\\s*`;
const DOCSIFY_SAMPLES = [
  `${DOCSIFY_KEY}(?:'([^'\\n]*)'|"([^"\\n]*)"|\`([^\`\\n]*)\`)`,
  `${DOCSIFY_KEY}(true|false|!0|!1)\\b`,
];

/**
 * recheck's fuzzer also stops a match on wall time (incubation 250 ms, attack 1 s by default) and
 * counts a match cut short as a hot spot, so on a loaded machine linear patterns were called
 * polynomial. Its step limits alone decide here, and the fixed seed makes every run give the
 * same verdict on any machine; the overall timeout is a backstop for a check that never ends.
 */
const VERDICT_BY_STEPS = { randomSeed: 1, incubationTimeout: null, attackTimeout: null, seedingTimeout: null, timeout: 120_000 } as const;

describe('regular expressions', () => {
  const { found: patterns, dynamic } = findPatterns(process.cwd(), DIRS);

  it('are all found (literals and RegExp with a literal source)', () => {
    // A floor, so that a broken finder cannot pass the test below by finding nothing.
    expect(patterns.length).toBeGreaterThan(300);
    expect(patterns.some((p) => p.where.startsWith('lib/convert/markdown.ts:'))).toBe(true);
    expect(patterns.some((p) => p.where.startsWith('components/'))).toBe(true);
  });

  it('built at run time only where named, with why', () => {
    const unnamed = dynamic.filter((d) => !BUILT_AT_RUN_TIME[d.where.replace(/:\d+$/, '')]).map((d) => `${d.where} ${d.code}`);
    expect(unnamed, `patterns built at run time, not named in BUILT_AT_RUN_TIME:\n${unnamed.join('\n')}`).toEqual([]);
  });

  it('none backtracks super-linearly (recheck)', { timeout: 600_000 }, async () => {
    const unsafe: string[] = [];
    const samples = DOCSIFY_SAMPLES.map((source) => ({ where: 'lib/shell/docsify-config.ts (basePath)', source, flags: '' }));
    for (const p of [...patterns, ...samples]) {
      const key = `/${p.source}/${p.flags}`;
      if (ALLOWED[key]) continue;
      const result = await check(p.source, p.flags, VERDICT_BY_STEPS);
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
