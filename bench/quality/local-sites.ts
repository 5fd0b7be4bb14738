/**
 * The Python and Node.js docs (Debian packages, see tests/fixtures/real-docs.ts) described the way
 * tests/fixtures/matrix.ts describes its sites, so the scorecard treats them alike. Used for the ids
 * the matrix does not define itself (and for every site while the matrix module does not exist).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { nodeDocsDir, nodeDocsSite, pythonDocsDir } from '../../tests/fixtures/real-docs';
import type { FixtureSite } from '../../tests/fixtures/server';

/** The shape of tests/fixtures/matrix.ts's MatrixSite. */
export interface QualitySite {
  id: string;
  family: string;
  host: string;
  startPath: string;
  /** The name the site gives itself (should be the llms.txt H1). */
  siteName: string;
  /** Ground truth: the site's top-level navigation group names. */
  topSections: string[];
  /** URL path → absolute path of the page's source Markdown (may be gzipped: `.gz`). */
  sources?: Record<string, string>;
  site(): FixtureSite;
}

export function localSites(): QualitySite[] {
  return [
    {
      id: 'python',
      family: 'sphinx (python-docs-theme)',
      host: 'docs.python.test',
      startPath: '/index.html',
      siteName: 'Python 3.11.2 documentation',
      // The top level of the site's own table of contents (contents.html) that holds pages under it:
      // the single pages listed after these (Glossary, About, Bugs, Copyright, License) are not groups.
      topSections: [
        'What’s New in Python',
        'The Python Tutorial',
        'Python Setup and Usage',
        'The Python Language Reference',
        'The Python Standard Library',
        'Extending and Embedding the Python Interpreter',
        'Python/C API Reference Manual',
        'Distributing Python Modules',
        'Installing Python Modules',
        'Python HOWTOs',
        'Python Frequently Asked Questions',
      ],
      site: () => ({ dir: pythonDocsDir() }),
    },
    {
      id: 'node',
      family: 'node doc-kit',
      host: 'api.nodejs.test',
      startPath: '/index.html',
      siteName: 'Node.js v18.20.4 Documentation',
      // The index is one flat list of modules: no named groups to agree with.
      topSections: [],
      get sources(): Record<string, string> {
        const dir = nodeDocsDir();
        const out: Record<string, string> = {};
        for (const file of readdirSync(dir)) {
          if (!file.endsWith('.html') || file === 'all.html' || file === 'index.html') continue;
          const md = join(dir, `${file.slice(0, -'.html'.length)}.md.gz`);
          if (existsSync(md)) out[`/${file}`] = md;
        }
        return out;
      },
      site: nodeDocsSite,
    },
  ];
}
