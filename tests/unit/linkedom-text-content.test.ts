/**
 * The linkedom text-content patch (scripts/linkedom-text-content.ts): the patched Element module,
 * loaded beside linkedom's own so its imports resolve to the same modules, reads the same text as
 * the unpatched getter from every element of documents with one, several, empty and no text nodes.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { textContent } from '../../scripts/linkedom-text-content';

const require = createRequire(import.meta.url);
const esmDir = join(require.resolve('linkedom/package.json').replace(/package\.json$/, ''), 'esm');

type Node = { nodeType: number; childNodes: Node[]; appendChild(n: Node): Node; ownerDocument: { createTextNode(s: string): Node; createCDATASection?(s: string): Node } };
type Getter = (this: Node) => string;

async function getters(): Promise<{ patched: Getter; original: Getter }> {
  const file = join(esmDir, 'interface', `element.test-${process.pid}-${Date.now()}.js`);
  writeFileSync(file, textContent(readFileSync(join(esmDir, 'interface', 'element.js'), 'utf8')));
  try {
    const patchedModule = (await import(file)) as { Element: { prototype: object } };
    const originalModule = (await import(join(esmDir, 'interface', 'element.js'))) as { Element: { prototype: object } };
    const getter = (proto: object) => Object.getOwnPropertyDescriptor(proto, 'textContent')?.get as Getter;
    return { patched: getter(patchedModule.Element.prototype), original: getter(originalModule.Element.prototype) };
  } finally {
    rmSync(file);
  }
}

describe('the linkedom text-content patch', () => {
  it('reads the same text as unpatched linkedom from every element', async () => {
    const { patched, original } = await getters();
    expect(patched).not.toBe(original);
    const { parseHTML } = (await import(join(esmDir, 'index.js'))) as { parseHTML: (html: string) => { document: { querySelectorAll(s: string): Node[] } } };
    const { document } = parseHTML(`<html><body><p>One <a href="x">link</a> and <code>c&lt;d</code>.</p><div></div><div><!-- c --></div>
      <ul><li>a</li><li><b>b</b><i></i><b>c</b></li></ul><span> </span><pre>x\n  y</pre><p>a&amp;b&amp;c</p></body></html>`);
    const elements = document.querySelectorAll('*');
    // Empty text nodes first, between and last: they add nothing, wherever they are.
    const li = elements.find((e) => e.childNodes.length === 3) as Node;
    li.appendChild(li.ownerDocument.createTextNode(''));
    const div = elements.find((e) => e.childNodes.length === 0) as Node;
    div.appendChild(div.ownerDocument.createTextNode(''));
    div.appendChild(div.ownerDocument.createTextNode('after empty'));
    div.appendChild(div.ownerDocument.createTextNode(''));
    div.appendChild(div.ownerDocument.createTextNode(' and more'));
    const texts = elements.map((e) => original.call(e));
    expect(elements.map((e) => patched.call(e))).toEqual(texts);
    // The document holds elements of none, one and several text nodes.
    expect(texts).toContain('');
    expect(texts).toContain('link');
    expect(texts).toContain('after empty and more');
    expect(texts).toContain('a&b&c');
  });

  it('reads CDATA sections as unpatched linkedom does', async () => {
    const { patched, original } = await getters();
    const { DOMParser } = (await import(join(esmDir, 'index.js'))) as { DOMParser: new () => { parseFromString(s: string, t: string): { querySelectorAll(s: string): Node[] } } };
    const xml = new DOMParser().parseFromString('<doc><a>x<![CDATA[<y>]]>z</a><b><![CDATA[only]]></b></doc>', 'text/xml');
    const elements = xml.querySelectorAll('*');
    expect(elements.map((e) => patched.call(e))).toEqual(elements.map((e) => original.call(e)));
    expect(elements.map((e) => patched.call(e))).toContain('only');
  });

  it('refuses code it was not written for', () => {
    expect(() => textContent('class Element {}')).toThrow(/linkedom changed/);
  });
});
