import { describe, expect, it } from 'vitest';
import { countTokens } from '@/lib/tokens';
import { PROMPT_VERSION, pageMessages, siteMessages, trimToTokens } from '@/lib/describe/prompt';

const paragraph = (i: number) => `## Section ${i}\n\nThe function number ${i} reads a stream, checks its header and returns the parsed records.\n- item one of ${i}\n- item two of ${i}`;
const LONG_DOC = Array.from({ length: 400 }, (_, i) => paragraph(i)).join('\n\n');

describe('trimToTokens', () => {
  it('leaves text that fits untouched', () => {
    expect(trimToTokens('# Title\n\nShort page.\n', 1500)).toBe('# Title\n\nShort page.\n');
  });

  it('keeps within the budget, cuts at a line or paragraph boundary, and uses most of the budget', () => {
    expect(countTokens(LONG_DOC)).toBeGreaterThan(10_000);
    for (const budget of [50, 300, 1500]) {
      const out = trimToTokens(LONG_DOC, budget);
      expect(countTokens(out)).toBeLessThanOrEqual(budget);
      expect(LONG_DOC.startsWith(out)).toBe(true);
      expect(LONG_DOC.charAt(out.length)).toBe('\n');
      // Never more than one paragraph (~45 tokens) or a quarter of the budget short of it.
      expect(countTokens(out)).toBeGreaterThan(Math.min(budget * 0.75, budget - 45) - 1);
    }
  });

  it('cuts between words when a single line is over budget, and between characters when there are no words', () => {
    const line = 'word '.repeat(5000);
    const words = trimToTokens(line, 100);
    expect(countTokens(words)).toBeLessThanOrEqual(100);
    expect(countTokens(words)).toBeGreaterThan(90);
    expect(words.endsWith('word')).toBe(true);
    const blob = 'x9Qz'.repeat(5000);
    const chars = trimToTokens(blob, 100);
    expect(countTokens(chars)).toBeLessThanOrEqual(100);
    expect(chars.length).toBeGreaterThan(100);
  });

  it('is fast on a multi-megabyte page (counts stay proportional to the budget)', () => {
    const huge = LONG_DOC.repeat(60);
    expect(huge.length).toBeGreaterThan(2_000_000);
    trimToTokens(LONG_DOC, 10); // load the encoder outside the measurement
    const started = performance.now();
    const out = trimToTokens(huge, 1500);
    expect(performance.now() - started).toBeLessThan(1500);
    expect(countTokens(out)).toBeLessThanOrEqual(1500);
    expect(countTokens(out)).toBeGreaterThan(1000);
  });

  it('returns nothing for a zero budget', () => {
    expect(trimToTokens(LONG_DOC, 0)).toBe('');
  });
});

describe('pageMessages', () => {
  it('asks for one plain sentence with title, URL and the page text fenced off', () => {
    const messages = pageMessages({ title: 'Streams\n API', url: 'https://docs.example.test/streams', markdown: '# Streams\n\nRead and write data.' });
    expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
    const [system, user] = messages.map((m) => m.content);
    expect(system).toMatch(/one plain sentence/);
    expect(system).toMatch(/25 words/);
    expect(system).toMatch(/no Markdown/);
    expect(system).toMatch(/"This page"/);
    expect(user).toContain('Title: Streams API\n');
    expect(user).toContain('URL: https://docs.example.test/streams\n');
    expect(user).toContain('"""\n# Streams\n\nRead and write data.\n"""');
    expect(user).not.toContain('first part only');
  });

  it('sends at most the budget of page text and says when it is only the first part', () => {
    const [, user] = pageMessages({ title: 'Long', url: 'https://x.test/', markdown: LONG_DOC }, 200);
    const text = /"""\n([\s\S]*)\n"""/.exec(user?.content ?? '')?.[1] ?? '';
    expect(text.length).toBeGreaterThan(0);
    expect(countTokens(text)).toBeLessThanOrEqual(200);
    expect(user?.content).toContain('first part only');
  });

  it('has a prompt version to key caches by', () => {
    expect(Number.isInteger(PROMPT_VERSION)).toBe(true);
    expect(PROMPT_VERSION).toBeGreaterThanOrEqual(1);
  });
});

describe('siteMessages', () => {
  it('lists the pages with their descriptions and asks for one sentence', () => {
    const messages = siteMessages({
      siteName: 'Acme Docs',
      entries: [{ title: 'Install', description: 'Installs the CLI.' }, { title: 'Config\nreference' }],
    });
    expect(messages[0]?.content).toMatch(/one plain sentence/);
    expect(messages[1]?.content).toBe('Site: Acme Docs\n\nPages:\n- Install: Installs the CLI.\n- Config reference');
  });

  it('trims a huge page list to its budget at a whole line', () => {
    const entries = Array.from({ length: 5000 }, (_, i) => ({ title: `Page ${i}`, description: `Describes feature number ${i} in detail.` }));
    const content = siteMessages({ siteName: 'Big', entries }, 300)[1]?.content ?? '';
    const list = content.split('Pages:\n')[1] ?? '';
    expect(countTokens(list)).toBeLessThanOrEqual(300);
    expect(list.split('\n').every((line) => /^- Page \d+: Describes feature number \d+ in detail\.$/.test(line))).toBe(true);
  });
});
