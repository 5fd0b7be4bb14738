import { describe, expect, it } from 'vitest';
import { learnBoilerplate } from '@/lib/generate/boilerplate';

// A generator that appends the same inherited member docs to the end of every type page: the
// whole tail is the site's, not the page's.
const own = (name: string) => `# ${name}\n\nThe ${name} type holds a value and knows how to print it for a reader.\n\n## Methods\n\n### fn ${name.toLowerCase()}_len(&self)\n\nCounts the parts of this ${name}.`;
const frame = ['## Inherited members', '### impl Shape for T', 'Returns the shape of the value unchanged.', '### impl Paint for T', 'Paints it on any canvas.', '#### fn paint(&self)', 'Paints.'];
const names = ['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon', 'Zeta', 'Eta', 'Theta', 'Iota', 'Kappa'];
const headingsOf = (markdown: string) => markdown.split('\n').filter((line) => /^#{1,6} /.test(line));

describe('the tail of the site frame', () => {
  it('drops inherited sections, headings with their bodies', () => {
    const pages = names.map((name) => [own(name), ...frame].join('\n\n'));
    pages.push('# Start\n\nThe start page says what the kit is for and has no inherited members at all.');
    const strip = learnBoilerplate(pages);
    for (const [i, name] of names.entries()) {
      const out = strip(pages[i] as string);
      expect(out).toBe(own(name));
    }
  });

  it('keeps a note a few pages share when it sits above the frame, and drops one below it', () => {
    const note = 'Shared note: these three pages describe the legacy drawing kit.';
    const below = 'Printed from the legacy kit, whose pages carry this line under the footer.';
    // Twelve pages: the notes' three are under the site's share, the footer's twelve are not.
    const twelve = [...names, 'Lambda', 'Mu'];
    const pages = twelve.map((name, i) => [own(name), ...(i < 3 ? [note] : []), '© Kit authors, all rights reserved', ...(i >= 9 ? [below] : [])].join('\n\n'));
    const strip = learnBoilerplate(pages);
    expect(strip(pages[0] as string)).toBe(`${own('Alpha')}\n\n${note}`);
    expect(strip(pages[4] as string)).toBe(own('Epsilon'));
    expect(strip(pages[10] as string)).toBe(own('Lambda'));
  });

  it('drops a closing section that is the same, heading and body, on most pages', () => {
    const footer = ['## KIT', 'Part of the [kit(1)](https://kit.example.test/kit.html) suite'];
    const pages = names.map((name) => [own(name), ...footer].join('\n\n'));
    const strip = learnBoilerplate(pages);
    expect(strip(pages[1] as string)).toBe(own('Beta'));
  });
});

// A command reference: every page ends with the options it takes, each documented the same way on
// every page that takes it, and a "See also" list of links to other commands.
const options: Record<string, string> = {
  global: 'Operates in global mode, so that packages are installed into the prefix folder instead of the current folder.',
  long: 'Show extended information in the listing and the search results.',
  json: 'Whether or not to output JSON data, rather than the normal output.',
  depth: 'The depth to go when recursing packages for the listing.',
  workspace: 'Enable running a command in the context of the configured workspaces of the current project.',
};
const option = (name: string) => [`#### \`${name}\``, '- Default: false\n- Type: Boolean', options[name] as string];
const commands = ['get', 'set', 'ls', 'll', 'find', 'view', 'pack', 'prune', 'fund', 'link'];
const command = (name: string, i: number) => {
  const taken = Object.keys(options).filter((_, k) => (i + k) % 2 === 0 || k === 4);
  const seeAlso = [`- [kit help ${commands[(i + 1) % commands.length]}](https://kit.example.test/${commands[(i + 1) % commands.length]}.html)`, `- [kit help ${commands[(i + 2) % commands.length]}](https://kit.example.test/${commands[(i + 2) % commands.length]}.html)`].join('\n');
  return [`# kit-${name}`, '### Synopsis', `Runs the ${name} command against the current project, one of the kit's ${i + 3} tools.`, '### Configuration', ...taken.flatMap(option), '### See Also', seeAlso].join('\n\n');
};

describe('content that several pages share at their end', () => {
  it('keeps every heading, and the option docs and link lists under them', () => {
    const pages = commands.map(command);
    const strip = learnBoilerplate(pages);
    for (const page of pages) {
      const out = strip(page);
      expect(headingsOf(out)).toEqual(headingsOf(page));
      expect(out).toBe(page);
    }
  });

  it('still drops the footer below the last section', () => {
    const footer = '© Kit authors, all rights reserved';
    const pages = commands.map(command);
    const strip = learnBoilerplate(pages.map((page) => `${page}\n\n${footer}`));
    for (const page of pages) expect(strip(`${page}\n\n${footer}`)).toBe(page);
  });
});
