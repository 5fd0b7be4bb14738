import type { Page } from '@playwright/test';
import { startFixtureServer, type FixtureSite } from '../fixtures/server';
import { readStore } from './extension-db';
import { expect, test } from './fixtures';
import { startCrawl } from './steps';

const HOST = 'freeze.example.test';
const HTML = { 'content-type': 'text/html; charset=utf-8' };
const MARKDOWN = { 'content-type': 'text/markdown; charset=utf-8' };
const page = (title: string, body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main>${body}</main></body></html>`;
const prose = '<p>Prose long enough to be read as the page’s own text, not a stub.</p>';

/**
 * Issue #28, item 1, in real Chromium: a site whose pages carry the inputs that froze Scout (an
 * exponential heading pattern, cubic Markdown title and link patterns, a cubic llms.txt link
 * pattern, and turndown's quadratic whitespace strip). Discovery reads its llms.txt when the panel
 * opens; the crawl converts every page. Each used to block the worker or the converter for
 * minutes; now the crawl ends as a crawl of six small pages does, and the panel answers.
 */
function freezingSite(): FixtureSite {
  const links = ['feff.html', 'nbsp.html', 'spaces.md', 'brackets.md', 'escapes.md']
    .map((p) => `<li><a href="/docs/${p}">${p}</a></li>`)
    .join('');
  return {
    routes: {
      '/': { headers: HTML, body: page('Freeze docs', `<h1>Freeze docs</h1>${prose}<ul>${links}</ul>`) },
      '/llms.txt': {
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        body: `# Freeze docs\n\n> Docs whose files are hostile.\n\n## Docs\n\n- [Tabs](${'\t'.repeat(300_000)}\n- [FEFF](/docs/feff.html): a heading with invisible characters\n`,
      },
      '/docs/feff.html': { headers: HTML, body: page('FEFF', `<h1>FEFF</h1>${prose}<h2>Install${'\uFEFF'.repeat(40)} more</h2>${prose}`) },
      '/docs/nbsp.html': { headers: HTML, body: page('NBSP', `<h1>NBSP</h1>${prose}<h2>A${'&nbsp;'.repeat(200_000)}B</h2><a href="/"><div>A${'&nbsp;'.repeat(200_000)}B</div><div>C</div></a>`) },
      '/docs/spaces.md': { headers: MARKDOWN, body: `#${' '.repeat(20_000)}x\n\n# Spaces\n\nProse long enough to be read as the page’s own text, not a stub.\n` },
      '/docs/brackets.md': { headers: MARKDOWN, body: `# Brackets\n\n${']('.repeat(300_000)}\n` },
      '/docs/escapes.md': { headers: MARKDOWN, body: `# Escapes\n\n${'[\\'.repeat(200_000)} [Home](/)\n` },
    },
  };
}

async function discoveryDone(panel: Page): Promise<void> {
  await expect
    .poll(
      // Until the worker has opened the database, it has no stores to read: not done yet.
      async () => (await readStore<{ kind: string; state: string }>(panel, 'jobs').catch(() => [])).some((j) => j.kind === 'discovery' && j.state === 'done'),
      { timeout: 15_000, message: 'discovery ends' },
    )
    .toBe(true);
}

test('pages and an llms.txt made to freeze Scout are read at once: the crawl ends and the panel answers', async ({ openPanel }) => {
  test.setTimeout(120_000);
  const site = await startFixtureServer({ [HOST]: freezingSite() });
  try {
    const panel = await openPanel(site.url(HOST, '/'));
    await discoveryDone(panel);
    const discovered = await readStore<{ url: string; status: string; text?: string }>(panel, 'discovered');
    expect(discovered.find((d) => d.url === site.url(HOST, '/llms.txt'))).toMatchObject({ status: 'found' });

    const started = Date.now();
    await startCrawl(panel);
    await expect(panel.getByTestId('crawl-progress')).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
    const took = Date.now() - started;

    // The panel answers at once: another tab opens and shows its content.
    const clicked = Date.now();
    await panel.getByRole('tab', { name: 'Discovered' }).click();
    await expect(panel.getByTestId('discovered')).toBeVisible({ timeout: 5000 });
    expect(Date.now() - clicked).toBeLessThan(5000);

    const pages = await readStore<{ url: string; title?: string; markdown?: string }>(panel, 'pages');
    const byPath = new Map(pages.map((p) => [new URL(p.url).pathname, p]));
    expect([...byPath.keys()].sort()).toEqual(['/', '/docs/brackets.md', '/docs/escapes.md', '/docs/feff.html', '/docs/nbsp.html', '/docs/spaces.md']);
    expect(byPath.get('/docs/feff.html')?.markdown).toContain(`## Install${'\uFEFF'.repeat(40)} more`);
    expect(byPath.get('/docs/spaces.md')?.title).toBe('x');
    expect(byPath.get('/docs/brackets.md')?.title).toBe('Brackets');
    console.log(`hostile-freeze: six hostile pages crawled in ${took} ms`);
  } finally {
    await site.close();
  }
});
