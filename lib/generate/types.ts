import type { NavLink } from '../convert/convert-page';
import type { BodyTokens, ChromeModel, Curation } from '../store/records/generate';

/** Stored with each generated version, so the store holds their shape (lib/store/records/generate.ts). */
export type { BodyTokens, Curation, GeneratedOutput, LlmsEntry, LlmsSectionModel, NotDocsEntry } from '../store/records/generate';

/** What the generator needs from a stored page. */
export interface SourcePage {
  /** Frontier key: stable id of the page within its crawl. */
  key: string;
  url: string;
  finalUrl: string;
  title: string;
  description?: string;
  /** What the page calls its site, when it says (see ConvertedPage.siteName). */
  siteName?: string;
  markdown: string;
  depth: number;
  format: 'markdown' | 'html';
  twinUrl?: string;
  state: 'stored' | 'duplicate' | 'removed';
  /**
   * Tokens the page adds to llms-full.txt (its body under that title), when counted before:
   * counting is the slow part of generating, so the caller keeps it on the page.
   */
  fullTokens?: BodyTokens;
  /** Set when the page has no readable text (why): it is left out of both files. */
  empty?: string;
  /** Set when the evidence says the page is not documentation (why): left out unless the user brings it back. */
  notDocs?: string;
  /**
   * With `GenerateInput.chrome`: the page's opening `# heading` line as crawled (`crawledHeading`),
   * before the chrome was taken off `markdown`; what the site's name is read from.
   */
  crawledHeading?: string;
}

export interface GenerateInput {
  startUrl: string;
  pages: SourcePage[];
  /** The site's navigation order, when the crawl recognised one. */
  nav?: NavLink[];
  curation?: Curation;
  /** For the details paragraph. */
  generatedAt: Date;
  /** A summary for the blockquote written elsewhere (the user's model); else one is derived from the pages. */
  summary?: string;
  /** The documentation's own name, when the crawl's boundary found one (`DocsBoundary.name`): the H1. */
  docsName?: string;
  /** The H1 of the site's own llms.txt covering the start page: after a shared title suffix, before og:site_name. */
  llmsName?: string;
  /** The folder the documentation starts at (the boundary's root holding the start page): its index is the docs' home. */
  docsHome?: string;
  /**
   * Counts page bodies: o200k's exact count in any case; the caller may pass a caching counter
   * (segment-count.ts) that it also hands to the full-text files, which count the same bodies again.
   */
  countTokens?: (text: string) => number;
  /**
   * The chrome the caller learned from these pages (`chromeLearner`, over `generatedPages`) and
   * already took off each generated page's `markdown`, keeping its `crawledHeading`: a caller that
   * reads pages from a store one batch at a time never holds every page's text twice. Without it,
   * the chrome is learned and stripped here.
   */
  chrome?: ChromeModel;
}

/** Pages under one H2, before curation. */
export interface PageGroup {
  /** Stable id: "nav:<name>", "path:<dir>/" or "more". */
  id: string;
  name: string;
  pages: SourcePage[];
  /** The group of pages at the top of the site; never merged away. */
  root: boolean;
  /** Named by the site itself (its navigation, or its start page's link): kept even with one page. */
  siteNamed?: boolean;
}
