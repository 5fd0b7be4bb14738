import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseHandlers } from '../../scripts/linkedom-parse-handlers';
import { rawClass } from '../../scripts/linkedom-raw-class';

const require = createRequire(import.meta.url);
const parserPath = join(require.resolve('linkedom/package.json').replace(/package\.json$/, ''), 'cjs/shared/parse-from-string.js');
const original = readFileSync(parserPath, 'utf8');
const { parseHTML, DOMParser } = require('linkedom') as {
  parseHTML(html: string): { document: { toString(): string; doctype: unknown } };
  DOMParser: new () => { parseFromString(markup: string, type: string): { toString(): string } };
};

type Parse = (document: unknown, isHTML: boolean, markup: string) => { toString(): string };
/** Callback objects htmlparser2's Parser was given, recorded by a Parser that wraps the real one. */
const given: Array<Record<string, unknown>> = [];
(globalThis as { __scoutParserCallbacks?: unknown[] }).__scoutParserCallbacks = given;

/** Loads a parser source beside linkedom's own (its requires resolve to the same modules), recording the callbacks it hands htmlparser2. */
function load(source: string): Parse {
  const spied = source.replace(
    'const {Parser} = HTMLParser2;',
    'const Parser = class extends HTMLParser2.Parser { constructor(cbs, options) { globalThis.__scoutParserCallbacks.push(cbs); super(cbs, options); } };',
  );
  if (spied === source) throw new Error('the test no longer finds the parser it wraps');
  const file = parserPath.replace(/\.js$/, `.test-handlers-${process.pid}-${Date.now()}-${Math.random()}.js`);
  writeFileSync(file, spied);
  try {
    return (require(file) as { parseFromString: Parse }).parseFromString;
  } finally {
    rmSync(file);
  }
}

const patched = load(parseHandlers(rawClass(original)));
const unpatched = load(rawClass(original));

const PAGES: Array<[boolean, string]> = [
  [true, '<!DOCTYPE html><html><head><title>T</title></head><body><!-- c --><p class=" a  b">x <b>y</b></p><svg viewBox="0 0 1 1"><g><path d="M0 0"/></g><SVG></SVG></svg><p>after</p><br/><img src=x></body></html>'],
  [true, '<div><svg><foreignObject><p>in svg</p></foreignObject></svg><x-y is="z">custom</x-y><table><tr><td>cell</table>text &amp; more</div>'],
  [false, '<?xml version="1.0"?><root><a b="c"><![CDATA[ <raw> ]]></a><!-- n --><d/></root>'],
];

function parse(parseFromString: Parse, isHTML: boolean, markup: string): string {
  const document = isHTML ? parseHTML('').document : new DOMParser().parseFromString('<r/>', 'text/xml');
  // Emptied first for XML: the patched and unpatched parser fill the same blank document.
  if (!isHTML) (document as unknown as { documentElement: { remove(): void } }).documentElement.remove();
  return parseFromString(document, isHTML, markup).toString();
}

describe('the linkedom parse-handlers patch', () => {
  it('builds the same documents as the parser it replaces', () => {
    for (const [isHTML, markup] of PAGES) expect(parse(patched, isHTML, markup)).toBe(parse(unpatched, isHTML, markup));
  });

  it('hands htmlparser2 the same callback functions for every document (the closures made per parse were optimised again per page)', () => {
    given.length = 0;
    parse(patched, true, '<p>one</p>');
    parse(patched, true, '<p>two</p>');
    expect(given).toHaveLength(2);
    expect(given[0]?.onopentag).toBe(given[1]?.onopentag);
    expect(given[0]?.ontext).toBe(given[1]?.ontext);
    expect(given[0]?.onclosetag).toBe(given[1]?.onclosetag);
  });

  it('refuses code it was not written for', () => {
    expect(() => parseHandlers('class X {}')).toThrow(/linkedom changed/);
  });
});
