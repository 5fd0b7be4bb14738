import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { htmlFilesOf } from '../../bench/harness';
import { linkedomAdapter } from '../../lib/convert/dom';
import { definitionLines, stripSiteSuffix } from '../../lib/convert/page-text';
import { holdsText, normalizeSpace } from '../../lib/convert/walk';
import { pythonDocsDir } from '../fixtures/real-docs';

/** The selector-based reading of definition lines, kept here as the oracle of the walk that replaced it. */
function definitionLinesBySelectors(root: Element): Set<Element> {
  const out = new Set<Element>();
  for (const paragraph of root.querySelectorAll('p')) {
    const ids = new Set<string>();
    const own = paragraph.getAttribute('id');
    if (own) ids.add(own);
    for (const element of paragraph.querySelectorAll('[id]')) ids.add(element.getAttribute('id') ?? '');
    if (!ids.size) continue;
    for (const link of paragraph.querySelectorAll('a[href]')) {
      const href = link.getAttribute('href') ?? '';
      const hash = href.indexOf('#');
      let fragment = href.slice(hash + 1);
      try {
        fragment = decodeURIComponent(fragment);
      } catch {}
      if (hash >= 0 && ids.has(fragment)) {
        out.add(paragraph);
        break;
      }
    }
  }
  return out;
}

const TRICKY = `<html><body>
  <p class="src"><a id="v:dbg">dbg</a> :: a -&gt; a <a href="#v:dbg" class="selflink">#</a></p>
  <p id="own">Own id, linked <a href="page.html#own">here</a></p>
  <p id="">Empty own id <a href="#">top</a></p>
  <p>Empty inner id <span id=""></span><a href="#">top</a></p>
  <p>Encoded <a id="a b"></a><a href="#a%20b">x</a> and broken <a href="#%E0%A4%A">y</a></p>
  <p>Id in a link's name only <a name="n" href="#n">n</a></p>
  <p>Template <template><a id="t" href="#t">t</a></template></p>
  <div><p>Nested <b><i id="deep">d</i></b> <em><a href="other.html#deep">link</a></em></p></div>
  <p>No ids <a href="#x">x</a></p>
  <div>   <span> </span><!-- comment text --><i>
  </i></div>
  <div><![CDATA[ cdata ]]></div>
  <section><div><div><span>  </span></div><div><b>word</b></div></div></section>
</body></html>`;

describe('holdsText (whether textContent has more than whitespace, without building it)', () => {
  it('agrees with normalizeSpace(textContent) on every element: blanks, comments, CDATA, nesting', () => {
    const body = linkedomAdapter.parse(TRICKY).body;
    const elements = [body, ...body.querySelectorAll('*')];
    const disagree = elements.filter((e) => holdsText(e) !== !!normalizeSpace(e.textContent));
    expect(disagree.map((e) => e.outerHTML)).toEqual([]);
    // Both answers occur: the comparison is not trivially all-true or all-false.
    expect(elements.filter((e) => holdsText(e)).length).toBeGreaterThan(0);
    expect(elements.filter((e) => !holdsText(e)).length).toBeGreaterThan(0);
  });

  it('agrees on every element of real pages (Python docs)', () => {
    const dir = pythonDocsDir();
    for (const file of htmlFilesOf(dir).slice(0, 4)) {
      const body = linkedomAdapter.parse(readFileSync(file, 'utf8')).body;
      const disagree = [body, ...body.querySelectorAll('*')].filter((e) => holdsText(e) !== !!normalizeSpace(e.textContent));
      expect(disagree.length).toBe(0);
    }
  });
});

describe('definitionLines (one walk instead of three selector queries per paragraph)', () => {
  it('finds the same paragraphs as the selectors: own and inner ids, empty ids, encoded fragments, templates', () => {
    const body = linkedomAdapter.parse(TRICKY).body;
    const got = [...definitionLines(body)];
    expect(got).toEqual([...definitionLinesBySelectors(body)]);
    // The Haddock line, the paragraph linked by its own id, the empty inner id reached by "#",
    // the encoded fragment and the nested one; not a link's name, nor the template's.
    expect(got.map((p) => normalizeSpace(p.textContent).slice(0, 12))).toEqual(['dbg :: a -> ', 'Own id, link', 'Empty inner ', 'Encoded x an', 'Nested d lin']);
  });

  it('finds the same paragraphs on real pages (Python docs)', () => {
    const dir = pythonDocsDir();
    for (const file of htmlFilesOf(dir).slice(0, 40)) {
      const body = linkedomAdapter.parse(readFileSync(file, 'utf8')).body;
      expect([...definitionLines(body)]).toEqual([...definitionLinesBySelectors(body)]);
    }
  });
});

describe('stripSiteSuffix (one collator made ahead instead of one per comparison)', () => {
  it('takes the site name off whatever its case, never when an accent differs', () => {
    expect(stripSiteSuffix('Intro — PYTHON docs', ['Python Docs'])).toBe('Intro');
    expect(stripSiteSuffix('Intro | Café', ['cafe'])).toBe('Intro | Café');
    expect(stripSiteSuffix('Intro | Café', ['CAFÉ'])).toBe('Intro');
  });
});
