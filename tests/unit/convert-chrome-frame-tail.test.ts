import { describe, expect, it } from 'vitest';
import { learnBoilerplate } from '@/lib/generate/boilerplate';

// A generator that appends the same inherited member docs to the end of every type page, with a
// few extra blocks only some kinds of type get: the whole tail is the site's, not the page's.
const own = (name: string) => `# ${name}\n\nThe ${name} type holds a value and knows how to print it for a reader.\n\n## Methods\n\n### fn ${name.toLowerCase()}_len(&self)\n\nCounts the parts of this ${name}.`;
const frame = ['## Inherited members', '### impl Shape for T', 'Returns the shape of the value unchanged.', '### impl Paint for T', 'Paints it.'];
// Only three of the ten type pages are iterators, and they get one more inherited block.
const iterTail = ['### impl Walk for I', 'Walks.'];

describe('the tail of the site frame', () => {
  it('drops inherited blocks below the frame even where only a few pages share them', () => {
    const names = ['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon', 'Zeta', 'Eta', 'Theta', 'Iota', 'Kappa'];
    const pages = names.map((name, i) => [own(name), ...frame, ...(i < 3 ? iterTail : [])].join('\n\n'));
    pages.push('# Start\n\nThe start page says what the kit is for and has no inherited members at all.');
    const strip = learnBoilerplate(pages);
    for (const [i, name] of names.entries()) {
      const out = strip(pages[i] as string);
      expect(out).toBe(own(name));
    }
  });

  it('keeps a note a few pages share when it sits above the frame, not below it', () => {
    const note = 'Shared note: these three pages describe the legacy drawing kit.';
    // Twelve pages: the note's three are under the site's share, the footer's twelve are not.
    const names = ['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon', 'Zeta', 'Eta', 'Theta', 'Iota', 'Kappa', 'Lambda', 'Mu'];
    const pages = names.map((name, i) => [own(name), ...(i < 3 ? [note] : []), '© Kit authors, all rights reserved'].join('\n\n'));
    const strip = learnBoilerplate(pages);
    expect(strip(pages[0] as string)).toBe(`${own('Alpha')}\n\n${note}`);
    expect(strip(pages[4] as string)).toBe(own('Epsilon'));
  });
});
