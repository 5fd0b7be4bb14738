import { describe, expect, it } from 'vitest';
import { leanMarkdown, relativeUrl } from '@/lib/generate/lean-links';
import { textWords } from './nested-helpers';
import { dedupeKey } from '@/lib/url/normalize';

const O = 'https://docs.orm.test';
const PAGE = `${O}/en/20/orm/session_basics.html`;

function lean(markdown: string, inFile: string[] = []): string {
  const keys = new Set(inFile.map((u) => dedupeKey(`${O}${u}`)));
  return leanMarkdown(markdown, PAGE, { origin: O, inFile: (key) => keys.has(key) });
}

describe('token-lean links', () => {
  it('make links within the site relative to the page, the shorter way', () => {
    expect(lean(`See [Session](${O}/en/20/orm/session_api.html).`)).toBe('See [Session](session_api.html).');
    expect(lean(`See [Core](${O}/en/20/core/engines.html).`)).toBe('See [Core](../core/engines.html).');
    expect(lean(`See [Home](${O}/index.html).`)).toBe('See [Home](/index.html).');
    expect(lean(`[Query](${O}/en/20/orm/queryguide/select.html?x=1)`)).toBe('[Query](queryguide/select.html?x=1)');
    expect(relativeUrl(new URL(`${O}/a/b.html`), new URL(`${O}/a/`))).toBe('./');
  });

  it('reduce an anchor link to its text when its page is in the file, else keep it (relative)', () => {
    const text = `The [Session](${O}/en/20/orm/session_api.html#sqlalchemy.orm.Session) object.`;
    expect(lean(text, ['/en/20/orm/session_api.html'])).toBe('The Session object.');
    expect(lean(text)).toBe('The [Session](session_api.html#sqlalchemy.orm.Session) object.');
    // An anchor on the page itself: the page is always in its own file.
    expect(lean(`[below](#setup)`, ['/en/20/orm/session_basics.html'])).toBe('below');
  });

  it('link a repeated target once per page', () => {
    const text = `[A](${O}/x.html), [A again](${O}/x.html) and [B](https://other.test/y) [B](https://other.test/y).`;
    expect(lean(text)).toBe('[A](/x.html), A again and [B](https://other.test/y) B.');
  });

  it('know fenced code line by line: indented and tilde fences, a longer closer, an unclosed fence', () => {
    const link = (name: string) => `[${name}](${O}/en/20/core/${name}.html)`;
    const text = [link('a'), '   ~~~', link('b'), '~~~~  ', link('c'), '```', '````', link('d'), ' ```', '', `x ${link('e')}`].join('\n');
    const made = ['[a](../core/a.html)', '   ~~~', link('b'), '~~~~  ', '[c](../core/c.html)', '```', '````', '[d](../core/d.html)', ' ```', '', `x ${link('e')}`].join('\n');
    expect(lean(text)).toBe(made);
  });

  it('leave code, images, other sites and odd links alone', () => {
    const text = [
      '```python',
      `x = "[not a link](${O}/x.html)"`,
      '```',
      `Inline \`[code](x.html)\` stays, ![diagram](${O}/img/d.png) stays, [mail](mailto:a@b.test) stays.`,
      `[Other](https://other.test/page.html#frag) stays.`,
    ].join('\n');
    expect(lean(text, ['/x.html'])).toBe(text);
  });

  it('read links to full addresses inside inline code (converted API signatures), nothing else there', () => {
    const text = `\`static [Connection](${O}/en/20/orm/Connection.html)\` and \`arr[i](x)\` and \`[A](${O}/a.html#b)\``;
    expect(lean(text, ['/a.html'])).toBe('`static [Connection](Connection.html)` and `arr[i](x)` and `A`');
  });

  it('keep titles, escapes and code inside link text', () => {
    expect(lean(`[\`Session.add()\`](${O}/en/20/orm/session_api.html#add "Add it")`)).toBe('[`Session.add()`](session_api.html#add "Add it")');
    expect(lean(`[a\\_b \\[1\\]](${O}/en/20/orm/x.html#y)`, ['/en/20/orm/x.html'])).toBe('a\\_b \\[1\\]');
  });

  it('never lose a word of the text', () => {
    const text = `# Title\n\nThe [Session](${O}/en/20/orm/session_api.html#s) and [Query](${O}/q.html) and [Session](${O}/en/20/orm/session_api.html#s).\n\n- [x](${O}/x.html): item`;
    const out = lean(text, ['/en/20/orm/session_api.html']);
    expect(out.length).toBeLessThan(text.length);
    expect(textWords(out)).toEqual(textWords(text));
  });
});
