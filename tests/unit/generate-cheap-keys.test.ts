/**
 * Generation's site-wide passes read every page: the chrome learner's block keys and the aggregate
 * finder's shingles are computed without building the strings and arrays their definitions speak
 * of. Each is checked here against that definition, written out plainly, on generated Markdown
 * made of the pieces where a shortcut could go wrong (words with and without letters, links,
 * escaped brackets, headings, Unicode letters outside the BMP, lone surrogates, marks).
 */
import { describe, expect, it } from 'vitest';
import { blocksOf, learnChrome } from '@/lib/generate/boilerplate';
import { shingles } from '@/lib/generate/page-class';

// A fixed seed: the same pages on every run, and a failure names the page.
function generator(seed: number) {
  let state = seed;
  const random = (n: number) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
  const pick = <T>(items: readonly T[]): T => items[random(items.length)] as T;
  return { random, pick };
}

const PIECES = [
  'Next', 'Previous', 'up', 'Home', 'the', 'Ünïcode', 'ΑΣ', 'Ωμέγα', '漢字', '𝐀𝐁𝐂', '\u{1D7D8}', 'e\u0301', '🎉', '\ud800',
  '42', 'v3.11', '—', '|', '»', '«', ':', '-', '`code`', '\\[', '\\]', '](', '[x](y)', '[Next page](next.html)',
  '[«](a.html#b "t")', '![img](i.png)', '[a\\]b](c)', '[p](q(r))', '```', '## ', '# ', '\u00a0', '\t', ' ', ' ', ' ', '\n',
];

function markdownPage(random: (n: number) => number, pick: <T>(items: readonly T[]) => T): string {
  const blocks: string[] = [];
  for (let b = 0; b < 1 + random(8); b++) {
    const parts: string[] = [];
    for (let p = 0; p < random(12); p++) parts.push(pick(PIECES));
    blocks.push(parts.join(random(2) ? ' ' : ''));
  }
  return blocks.join('\n\n');
}

// The chrome learner's keys as defined (the words and links counted over the whole block), over
// the learner's own blocks.
const LINK = /(?<!\\)!?\[((?:[^[\]\\]|\\.)*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"]*")?\)/g;
const exactKey = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();
function shapeKey(text: string): string | undefined {
  let links = 0;
  const shape = text.replace(LINK, () => {
    links++;
    return '[]';
  });
  if (links < 2) return undefined;
  const words = shape.replace(/\[\]/g, ' ').split(/\s+/).filter((word) => /\p{L}/u.test(word));
  if (words.length > 6) return undefined;
  return `shape:${shape.replace(/\d+/g, '0').replace(/\s+/g, ' ').trim().toLowerCase()}`;
}
function keysOf(text: string): string[] {
  const words = text.split(/\s+/).filter((word) => /\p{L}/u.test(word)).length;
  if (words > 0 && words < 3 && !text.includes('](') && !/^#{1,6}\s/.test(text)) return [];
  const shape = shapeKey(text);
  return shape ? [exactKey(text), shape] : [exactKey(text)];
}
function referenceChrome(markdowns: string[]) {
  const perKey = new Map<string, number>();
  const perText = new Map<string, number>();
  for (const markdown of markdowns) {
    const seen = new Set<string>();
    const texts = new Set<string>();
    for (const block of blocksOf(markdown)) {
      if (block.code) continue;
      for (const key of keysOf(block.text)) seen.add(key);
      texts.add(exactKey(block.text));
    }
    for (const key of seen) perKey.set(key, (perKey.get(key) ?? 0) + 1);
    for (const text of texts) perText.set(text, (perText.get(text) ?? 0) + 1);
  }
  const threshold = Math.max(3, Math.ceil(0.3 * markdowns.length));
  const repeated = [...perKey].filter(([, n]) => n >= threshold).map(([key]) => key).sort();
  if (repeated.length === 0) return [];
  return repeated;
}

// The aggregate finder's shingles as defined: the prose's lower-cased words as strings, hashed.
function referenceShingles(markdown: string): Set<number> {
  const hash = (text: string) => {
    let h = 2166136261;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
    return h >>> 0;
  };
  const prose = markdown.replace(/```[\s\S]*?```/g, ' ').replace(/\[[^[\]]*\]\((?:[^()]|\([^()]*\))*\)/g, ' ');
  const words = (prose.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map(hash);
  const out = new Set<number>();
  for (let i = 0; i + 8 <= words.length; i++) {
    let h = 2166136261;
    for (let j = i; j < i + 8; j++) h = Math.imul(h ^ (words[j] ?? 0), 16777619);
    h >>>= 0;
    if (h % 8 === 0) out.add(h);
  }
  return out;
}

describe('cheap site-wide keys', () => {
  it('the chrome learner finds the blocks its definition finds', () => {
    const { random, pick } = generator(7);
    // Small sites whose pages share a few blocks, so some keys cross the threshold and some don't.
    let repeatedSeen = 0;
    for (let site = 0; site < 300; site++) {
      const shared = Array.from({ length: 6 }, () => markdownPage(random, pick));
      const pages = Array.from({ length: 6 + random(6) }, () => {
        const own = markdownPage(random, pick);
        const head = shared.filter(() => random(3) > 0);
        return [...head, own].join('\n\n');
      });
      const expected = referenceChrome(pages);
      repeatedSeen += expected.length;
      expect(learnChrome(pages).repeated, JSON.stringify(pages)).toEqual(expected);
    }
    // The generated sites reach both sides of the thresholds: keys are learned, shape keys among them.
    expect(repeatedSeen).toBeGreaterThan(300);
  });

  it('shingles are the hashed word shingles of the lower-cased prose', () => {
    const { random, pick } = generator(11);
    let nonEmpty = 0;
    for (let page = 0; page < 2000; page++) {
      const markdown = Array.from({ length: 12 }, () => markdownPage(random, pick)).join('\n\n');
      const expected = referenceShingles(markdown);
      if (expected.size > 0) nonEmpty++;
      expect([...shingles(markdown)], JSON.stringify(markdown)).toEqual([...expected]);
    }
    expect(nonEmpty).toBeGreaterThan(200);
  });
  it('blocks are the runs of lines between blank lines, fenced code whole', () => {
    // The definition: the page split into lines, each block its lines joined again.
    const FENCE = /^ {0,3}(`{3,}|~{3,})/;
    const referenceBlocks = (markdown: string) => {
      const blocks: Array<{ text: string; code: boolean }> = [];
      let lines: string[] = [];
      let fence = '';
      const flush = (code: boolean) => {
        if (lines.length) blocks.push({ text: lines.join('\n'), code });
        lines = [];
      };
      for (const line of markdown.split('\n')) {
        const marker = FENCE.exec(line)?.[1];
        if (fence) {
          lines.push(line);
          if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) {
            flush(true);
            fence = '';
          }
        } else if (marker) {
          flush(false);
          fence = marker;
          lines.push(line);
        } else if (line.trim() === '') flush(false);
        else lines.push(line);
      }
      flush(fence !== '');
      return blocks;
    };
    const { random, pick } = generator(13);
    // Lines that open, close or almost close fences, blank lines of every kind of space, and text.
    const lines = ['```', '````', '~~~', '~~~~ ', '   ```js', '    ```', ' ~~~', '``', '', ' ', '\t', '\u00a0', '\r', '\ufeff', 'text', '# Heading', '- item', ' indented', '\u00e9t\u00e9', '`code`', '~x', '[a](https://x.test/a)'];
    for (let page = 0; page < 3000; page++) {
      const markdown = Array.from({ length: random(14) }, () => pick(lines)).join('\n');
      expect(blocksOf(markdown), JSON.stringify(markdown)).toEqual(referenceBlocks(markdown));
    }
  });
});
