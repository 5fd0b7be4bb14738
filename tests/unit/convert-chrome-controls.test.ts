import { describe, expect, it } from 'vitest';
import { convertHtml } from '@/lib/convert/convert-page';
import { linkedomAdapter } from '@/lib/convert/dom';

// Small pages shaped like the classes of chrome and glued text found on API-reference generators:
// controls that only toggle content, links to source listings, icon letters before links, and
// kind badges set beside a heading's name. The names and words are invented; the shapes are not.
const convert = (body: string, url = 'https://api.example.org/kit/thing.html') =>
  convertHtml(`<!doctype html><html><head><title>Thing</title></head><body><main>${body}</main></body></html>`, url, linkedomAdapter).markdown;
const PROSE = 'Builds a widget from its parts and hands it back ready to be placed on a panel.';

describe('controls that only toggle content are not content', () => {
  it('drops a summary that is an expand/collapse label and keeps what it toggles', () => {
    const markdown = convert(`<h1>Widget</h1><details open><summary><span>Expand description</span></summary><p>${PROSE}</p></details>`);
    expect(markdown).toContain(PROSE);
    expect(markdown).not.toMatch(/expand/i);
  });

  it('keeps a summary that names what it holds (a collapsible note or example)', () => {
    const markdown = convert(`<h1>Widget</h1><details><summary>Example: two widgets side by side</summary><p>${PROSE}</p></details><details><summary>Show more</summary><p>Second part of the text.</p></details>`);
    expect(markdown).toContain('Example: two widgets side by side');
    expect(markdown).toContain(PROSE);
    expect(markdown).not.toContain('Show more');
    expect(markdown).toContain('Second part of the text.');
  });
});

describe('links to source listings are chrome', () => {
  it('drops "source" and "[src]" links beside members and keeps the member', () => {
    const markdown = convert(
      `<h1>Widget</h1><section><span class="right">since 1.2.0 · <a href="../src/widget.rs.html#10">source</a></span><h3>fn build(parts) -&gt; Widget</h3></section><p>${PROSE}</p>` +
        `<dl><dt>fold(a, b)<a href="../_modules/kit.html#fold"><span>[source]</span></a></dt><dd>Folds a into b.</dd></dl><p>The <a href="../src/widget.rs.html">source of the widget</a> is short.</p>`,
    );
    expect(markdown).toContain('fn build(parts) -> Widget');
    expect(markdown).toContain('fold(a, b)');
    expect(markdown).not.toMatch(/\[\\?\[?source\\?\]?\]|\[src\]/i);
    // The separator before the link goes with it.
    expect(markdown).toContain('since 1.2.0\n');
    expect(markdown).not.toMatch(/1\.2\.0 ·/);
    // In a table the link is part of its cell's text, and the cell stays whole.
    expect(convert(`<h1>Widget</h1><table><tr><td>Functor Pair <a href="src/Pair.html">Source</a></td><td>Maps both.</td></tr></table>`)).toContain('Functor Pair [Source](https://api.example.org/kit/src/Pair.html)');
    // Said in a sentence, or a name in code, "source" is prose.
    const prose = convert(`<h1>Widget</h1><p>First get the <a href="https://example.net/dl/">source</a>, then see <a href="#kit.source"><code>source</code></a> below.</p>`);
    expect(prose).toContain('get the [source](https://example.net/dl/)');
    expect(prose).toContain('[`source`](https://api.example.org/kit/thing.html#kit.source)');
    // A link that says more than "source" is prose.
    expect(markdown).toContain('[source of the widget](https://api.example.org/src/widget.rs.html)');
  });
});

describe('inline parts the page shows apart stay apart', () => {
  it('sets a one-letter icon directly before a link in a tree or list apart from the name', () => {
    const markdown = convert(
      `<h1>Types</h1><table><tr><td><span style="width:16px;display:inline-block;">&#160;</span><span class="k"><span class="g">S</span></span><a href="struct_pair.html">pair_list</a></td><td>A list of pairs.</td></tr>` +
        `<tr><td><i>T</i><a href="struct_tree.html">tree_node</a></td><td>A node.</td></tr></table>`,
    );
    expect(markdown).toContain('S [pair_list](https://api.example.org/kit/struct_pair.html)');
    expect(markdown).toContain('_T_ [tree_node](https://api.example.org/kit/struct_tree.html)');
  });

  it('keeps a single letter that is part of the sentence before a link', () => {
    const markdown = convert(`<h1>Types</h1><p>Point <span>x</span> <a href="p.html">here</a> on the 2<span>D</span><a href="d.html">-plane</a>.</p>`);
    expect(markdown).toContain('Point x [here](https://api.example.org/kit/p.html)');
    expect(markdown).toContain('2D[-plane](https://api.example.org/kit/d.html)');
  });

  it('separates a kind badge from the name at the end of a heading', () => {
    const markdown = convert(`<h1>Variable parser<code class="t">Const</code></h1><p>${PROSE}</p><h2>Iterator<code>&lt;T&gt;</code></h2><h2>Using <code>fold</code>s</h2>`);
    expect(markdown).toMatch(/^# Variable parser `Const`$/m);
    expect(markdown).toMatch(/^## Iterator`<T>`$/m);
    expect(markdown).toMatch(/^## Using `fold`s$/m);
  });
});
