/**
 * Where a site's documentation is, as opposed to the company website around it: the hosts and
 * folders the docs live in, inferred before a crawl from the evidence the site gives (the start
 * page's place, its navigation tree, canonical link, the llms.txt files found and the URLs they
 * cover, the sitemaps), and the default scope of a crawl (`docs`).
 */

/** One place the documentation lives: an origin and a folder under it (the path ends with `/`). */
export interface DocsRoot {
  origin: string;
  path: string;
}

/** The documentation's boundary, with the evidence for it in words. */
export interface DocsBoundary {
  roots: DocsRoot[];
  /** What the boundary was inferred from, one line per piece of evidence, for the user. */
  why: string[];
  /** The documentation's own name when it has one ("Acme documentation"), not the company's. */
  name?: string;
  /** Page URLs the docs' own navigation lists (fragment-free): the template pages are compared with. */
  nav: string[];
  /** URLs the site's sitemaps and llms.txt files list, inside the boundary and outside it. */
  listed: { inside: number; outside: number; fromSitemaps: boolean; fromLlms: boolean };
}

/** What the boundary is inferred from: plain data, gathered by lib/crawl/plan.ts. */
export interface BoundaryEvidence {
  startUrl: string;
  /** Where the start page ended after redirects. */
  finalUrl?: string;
  /** The start page's canonical link. */
  canonical?: string;
  /** The start page's navigation tree (lib/convert/nav-links.ts), in order. */
  nav: Array<{ url: string; title: string; depth: number }>;
  /** The start page's title and the site name it gives (og:site_name and the like). */
  title?: string;
  siteName?: string;
  /** The llms.txt-family files discovery found, each with its H1 and the URLs it links. */
  llms: Array<{ url: string; title?: string; links: string[] }>;
  /** The page URLs the site's sitemaps list. */
  sitemapUrls: string[];
}
