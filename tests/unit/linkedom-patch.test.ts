import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lazyListeners } from '../../scripts/linkedom-lazy-listeners';
import { rawClass } from '../../scripts/linkedom-raw-class';
import { upperNames } from '../../scripts/linkedom-upper-names';

const require = createRequire(import.meta.url);
// The module file itself (the package's exports map does not list it).
const cjsPath = join(require.resolve('linkedom/package.json').replace(/package\.json$/, ''), 'cjs/interface/event-target.js');

describe('the linkedom lazy-listeners patch', () => {
  it('applies to the pinned linkedom and keeps event listeners working', () => {
    const patched = lazyListeners(readFileSync(cjsPath, 'utf8'));
    expect(patched).not.toContain('wm.set(this, new Map);\n  }');
    const file = join(mkdtempSync(join(tmpdir(), 'linkedom-patch-')), 'event-target.cjs');
    writeFileSync(file, patched);
    const { EventTarget: DOMEventTarget } = require(file) as { EventTarget: new () => { addEventListener(t: string, f: (e: unknown) => void): void; removeEventListener(t: string, f: unknown): void; dispatchEvent(e: unknown): boolean } };
    const target = new DOMEventTarget();
    const seen: string[] = [];
    const listener = (e: unknown) => seen.push((e as { type: string }).type);
    // No listener yet: removing and dispatching must not throw.
    target.removeEventListener('ping', listener);
    const event = () => ({ type: 'ping', bubbles: false, _path: [] as unknown[], CAPTURING_PHASE: 1, AT_TARGET: 2, BUBBLING_PHASE: 3, eventPhase: 0 });
    target.dispatchEvent(event());
    target.addEventListener('ping', listener);
    target.dispatchEvent(event());
    target.removeEventListener('ping', listener);
    target.dispatchEvent(event());
    expect(seen).toEqual(['ping']);
  });

  it('refuses code it was not written for, rather than silently doing nothing', () => {
    expect(() => lazyListeners('class X {}')).toThrow(/linkedom changed/);
  });
});

describe('the linkedom raw-class patch', () => {
  const parserPath = join(require.resolve('linkedom/package.json').replace(/package\.json$/, ''), 'cjs/shared/parse-from-string.js');
  type Parse = (document: unknown, isHTML: boolean, html: string) => unknown;
  type Doc = { querySelector(s: string): { getAttributeNode(n: string): { value: string } | null; getAttribute(n: string): string | null; className: string; classList: { contains(t: string): boolean } } | null };
  const { parseHTML } = require('linkedom') as { parseHTML(html: string): { document: Doc } };

  /** Loads a parser source beside linkedom's own (its relative requires then resolve to the same modules) and parses with it. */
  function parseWith(source: string, html: string): Doc {
    const file = parserPath.replace(/\.js$/, `.test-${process.pid}-${Date.now()}.js`);
    writeFileSync(file, source);
    try {
      const { parseFromString } = require(file) as { parseFromString: Parse };
      const { document } = parseHTML('');
      // An empty parse leaves a document with nothing in it; the patched parser fills it.
      parseFromString(document, true, html);
      return document;
    } finally {
      rmSync(file);
    }
  }

  const html = '<html><body><p class=" note  warning note">x</p></body></html>';

  it('keeps class attributes as written, and classList and getAttribute answer as before', () => {
    const p = parseWith(rawClass(readFileSync(parserPath, 'utf8')), html).querySelector('p');
    expect(p?.getAttributeNode('class')?.value).toBe(' note  warning note');
    expect(p?.getAttribute('class')).toBe('note warning');
    expect(p?.className).toBe('note warning');
    expect(p?.classList.contains('warning')).toBe(true);
  });

  it('changes what unpatched linkedom does: it rewrites the attribute as the joined tokens', () => {
    const p = parseWith(readFileSync(parserPath, 'utf8'), html).querySelector('p');
    expect(p?.getAttributeNode('class')?.value).toBe('note warning');
  });

  it('refuses code it was not written for', () => {
    expect(() => rawClass('class X {}')).toThrow(/linkedom changed/);
  });
});

describe('the linkedom upper-names patch', () => {
  const esmDir = join(require.resolve('linkedom/package.json').replace(/package\.json$/, ''), 'esm/shared');
  type LocalCase = (node: { localName: string; ownerDocument: Record<symbol, { ignoreCase: boolean }> }) => string;

  /** The patched utilities module, loaded beside linkedom's own so its imports resolve to the same symbols. */
  async function patchedLocalCase(): Promise<{ localCase: LocalCase; MIME: symbol }> {
    const file = join(esmDir, `utils.test-${process.pid}-${Date.now()}.js`);
    writeFileSync(file, upperNames(readFileSync(join(esmDir, 'utils.js'), 'utf8')));
    try {
      const { localCase } = (await import(file)) as { localCase: LocalCase };
      const { MIME } = (await import(join(esmDir, 'symbols.js'))) as { MIME: symbol };
      return { localCase, MIME };
    } finally {
      rmSync(file);
    }
  }

  it('names HTML elements in upper case, the same string every time, and leaves XML names as written', async () => {
    const { localCase, MIME } = await patchedLocalCase();
    const html = { [MIME]: { ignoreCase: true } };
    const xml = { [MIME]: { ignoreCase: false } };
    expect(localCase({ localName: 'section', ownerDocument: html })).toBe('SECTION');
    expect(localCase({ localName: 'x-Widget', ownerDocument: html })).toBe('X-WIDGET');
    expect(localCase({ localName: 'x-Widget', ownerDocument: xml })).toBe('x-Widget');
    // Past its 500 names it still answers right.
    for (let i = 0; i < 600; i++) expect(localCase({ localName: `tag-${i}`, ownerDocument: html })).toBe(`TAG-${i}`);
  });

  it('refuses code it was not written for', () => {
    expect(() => upperNames('export const x = 1;')).toThrow(/linkedom changed/);
  });
});
