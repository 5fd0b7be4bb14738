/**
 * The text-runs patch of linkedom's tokenizer (scripts/linkedom-text-runs.ts): the patched
 * htmlparser2 Tokenizer, loaded beside the original so its imports resolve to the same modules,
 * gives the parser the same events as the original on inputs whose text and attribute values hold
 * entities, bare `&`, stray `<`, the other quote, or end unterminated, whole and written in chunks.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { textRuns } from '../../scripts/linkedom-text-runs';

const require = createRequire(import.meta.url);
// The htmlparser2 linkedom imports: its CommonJS entry is dist/commonjs/index.js, the ES build beside it.
const esmDir = join(dirname(require.resolve('htmlparser2')), '..', 'esm');

type Callbacks = Record<string, (...args: unknown[]) => void>;
type ParserClass = new (cbs: Callbacks, options: object) => { write(s: string): void; end(): void };

async function tokenizers(): Promise<{ Parser: ParserClass; patched: unknown; original: unknown }> {
  const file = join(esmDir, `Tokenizer.test-${process.pid}-${Date.now()}.js`);
  writeFileSync(file, textRuns(readFileSync(join(esmDir, 'Tokenizer.js'), 'utf8')));
  try {
    const patched = ((await import(file)) as { default: unknown }).default;
    const original = ((await import(join(esmDir, 'Tokenizer.js'))) as { default: unknown }).default;
    const { Parser } = (await import(join(esmDir, 'index.js'))) as { Parser: ParserClass };
    return { Parser, patched, original };
  } finally {
    rmSync(file);
  }
}

/** Every event the parser reports, in order, with linkedom's options (or `options`), the input written in `chunk`-sized pieces. */
function events(Parser: ParserClass, Tokenizer: unknown, html: string, chunk = html.length, options: object = {}): string[] {
  const out: string[] = [];
  const names = ['onopentag', 'onattribute', 'ontext', 'onclosetag', 'oncomment', 'onprocessinginstruction', 'oncdatastart', 'oncdataend'];
  const cbs = Object.fromEntries(names.map((name) => [name, (...args: unknown[]) => void out.push(`${name} ${JSON.stringify(args)}`)]));
  const parser = new Parser(cbs, { lowerCaseAttributeNames: false, decodeEntities: true, xmlMode: false, ...options, Tokenizer });
  for (let i = 0; i < html.length; i += Math.max(1, chunk)) parser.write(html.slice(i, i + Math.max(1, chunk)));
  parser.end();
  return out;
}

const INPUTS = [
  '<html><body><p>One &amp; two &lt;three&gt; &copy &#169; &#xA9; &notanentity; a&b & c</p></body></html>',
  '<p title="a &amp; b" data-x=\'it&apos;s "quoted"\' alt="&quot;x&quot;" href="/a?b=1&c=2&amp;d=3" bare=x&amp;y empty="" flag>t</p>',
  'text before <b>bold</b> a < b and c <= d, 1 <2 > 0 <!-- a & comment --> <![CDATA[ x & y ]]> end',
  '<title>A &amp; B</title><script>if (a < b && c) x = "&amp;";</script><style>a > b { content: "&" }</style><textarea>x &lt; y</textarea>',
  '<div class="unterminated &amp; value',
  'trailing text with no tag &amp; an entity at the very end &amp',
  'ends with a bare ampersand &',
  '<a href=\'single &amp; "double" inside\'>x</a><a href="double \'single\' inside">y</a>',
  '<svg><text x="1">a &amp; b</text></svg><math><mi>&pi;</mi></math>',
  '',
];

describe('the linkedom text-runs patch', () => {
  it('gives the parser the same events as the original tokenizer, whole and in chunks', async () => {
    const { Parser, patched, original } = await tokenizers();
    expect(patched).not.toBe(original);
    // A chunk's end splits a text run for both tokenizers alike, so each is compared at the same chunk size.
    for (const html of INPUTS) {
      for (const chunk of [html.length, 1, 2, 3, 7, 16]) expect(events(Parser, patched, html, chunk), `${html} in chunks of ${chunk}`).toEqual(events(Parser, original, html, chunk));
    }
    // The inputs reach the paths the patch changes: decoded entities in text and in attribute values.
    const all = INPUTS.flatMap((html) => events(Parser, original, html)).join('\n');
    expect(all).toContain('ontext [" two "]');
    expect(all).toContain('"title":"a & b"');
  });

  it('gives the same events without entity decoding, and in XML mode', async () => {
    const { Parser, patched, original } = await tokenizers();
    for (const options of [{ decodeEntities: false }, { xmlMode: true }]) {
      for (const html of INPUTS) expect(events(Parser, patched, html, 5, options)).toEqual(events(Parser, original, html, 5, options));
    }
  });

  it('refuses code it was not written for', () => {
    expect(() => textRuns('export default class Tokenizer {}')).toThrow(/htmlparser2 changed/);
  });
});
