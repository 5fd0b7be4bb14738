import { describe, expect, it } from 'vitest';
import { namesWithin, siteName } from '@/lib/generate/site-name';
import type { SourcePage } from '@/lib/generate/types';

const ORIGIN = 'https://docs.acorn.test';

function page(path: string, title: string, heading = title): SourcePage {
  const url = `${ORIGIN}${path}`;
  return { key: url, url, finalUrl: url, title, markdown: `# ${heading}\n\nAbout ${heading}.`, depth: 1, format: 'html', state: 'stored' };
}

describe('the site name from the titles', () => {
  it('keeps a name with a colon whole when every title ends with it after a colon (gtk-doc)', () => {
    const name = 'Cairo: A Vector Graphics Library';
    const pages = [
      // The book's front page has no heading of its own: its title is the book's name twice.
      { ...page('/index.html', `${name}: ${name}`), markdown: 'for Cairo 1.16.0\n\n- [Drawing](cairo-drawing.html)' },
      page('/cairo-drawing.html', `Drawing: ${name}`, 'Drawing'),
      page('/cairo-Paths.html', `Paths: ${name}`, 'Paths'),
      page('/cairo-text.html', `text: ${name}`, 'text'),
      page('/bindings-fonts.html', `Fonts: ${name}`, 'Fonts'),
    ];
    expect(siteName(pages, `${ORIGIN}/`)).toEqual({ name, fromHost: false });
  });

  it('does not take a colon for a separator when few titles share what follows it', () => {
    const pages = [page('/index.html', 'Acorn DB'), page('/a.html', 'Tutorial: Getting started'), page('/b.html', 'Query: Filters'), page('/c.html', 'Tune')];
    expect(siteName(pages, `${ORIGIN}/index.html`).name).toBe('Acorn DB');
  });

  it('names the docs inside a wider suffix when the home says it and most titles repeat it (rustdoc)', () => {
    const pages = [
      page('/proc_macro/', 'proc_macro - Rust', 'Crate proc_macro'),
      page('/proc_macro/struct.Span.html', 'Span in proc_macro - Rust', 'Struct proc_macro::Span'),
      page('/proc_macro/struct.Ident.html', 'Ident in proc_macro - Rust', 'Struct proc_macro::Ident'),
      page('/proc_macro/fn.quote.html', 'quote in proc_macro - Rust', 'Function proc_macro::quote'),
      page('/proc_macro/token_stream/index.html', 'proc_macro::token_stream - Rust', 'Module proc_macro::token_stream'),
      page('/proc_macro/all.html', 'List of all items in this crate'),
    ];
    const found = siteName(pages, `${ORIGIN}/proc_macro/`);
    expect(found).toEqual({ name: 'proc_macro', fromHost: false, within: 'Rust' });
    // The boundary read "Rust" from the start page's title alone: the pages' name replaces it.
    expect(namesWithin(found, 'Rust')).toBe(true);
    expect(namesWithin(found, 'The Rust Standard Library')).toBe(false);
  });

  it('keeps the shared suffix when the home page’s own part is not repeated or not its heading', () => {
    const site = [page('/a.html', 'Install — Acorn DB', 'Install'), page('/b.html', 'Install on Linux — Acorn DB'), page('/c.html', 'Query — Acorn DB'), page('/d.html', 'Tune — Acorn DB')];
    // Only one other title says "Install": not half of them.
    const install = siteName([page('/index.html', 'Install — Acorn DB', 'Install'), ...site.slice(1)], `${ORIGIN}/index.html`);
    expect(install).toEqual({ name: 'Acorn DB', fromHost: false });
    expect(namesWithin(install, 'Acorn DB')).toBe(false);
    // Repeated, but the home's heading does not say it.
    const repeated = [page('/index.html', 'Acorn - Cloud', 'Welcome'), page('/a.html', 'Acorn CLI - Cloud'), page('/b.html', 'Acorn API - Cloud'), page('/c.html', 'Acorn SDK - Cloud')];
    expect(siteName(repeated, `${ORIGIN}/index.html`).name).toBe('Cloud');
    // A generic home part is never a name.
    const generic = [page('/index.html', 'Overview - Acorn', 'Overview'), page('/a.html', 'Overview of queries - Acorn'), page('/b.html', 'Overview of tuning - Acorn')];
    expect(siteName(generic, `${ORIGIN}/index.html`).name).toBe('Acorn');
  });
});
