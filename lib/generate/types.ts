import type { NavLink } from '../convert/convert-page';
import type { OutputSettings } from './output-settings';

/**
 * A cached token count of a page's body: the body depends on the title (demoteHeadings drops a
 * first heading that repeats it) and on the Markdown, which generation trims of site chrome; `hash`
 * is that Markdown's fingerprint (lib/hash.ts). `chars` is its length, all that counts made before
 * the hash had.
 */
export interface BodyTokens {
  title: string;
  count: number;
  chars?: number;
  hash?: string;
}

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
}

/** The user's review choices, applied on top of the generated structure. */
export interface Curation {
  /** Section ids in the order the user wants (unknown ids ignored; missing ones keep their place after). */
  sectionOrder?: string[];
  /** Section id → new name. */
  renames?: Record<string, string>;
  /** Page keys moved to the Optional section. */
  optional?: string[];
  /** Page keys left out of both files. */
  excluded?: string[];
  /** Page keys marked not documentation (`PageRecord.notDocs`) that the user brought back. */
  included?: string[];
  /** Leave Optional pages out of llms-full.txt (default: include them, last). */
  fullWithoutOptional?: boolean;
  /** The size budget, flat or nested layout, token-lean links (see output-settings.ts). */
  output?: Partial<OutputSettings>;
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
}

export interface LlmsEntry {
  key: string;
  title: string;
  /** The link target: the Markdown twin when one was found, else the page. */
  url: string;
  pageUrl: string;
  description?: string;
  tokens: number;
}

export interface LlmsSectionModel {
  /** Stable id (from the section's origin, e.g. "path:/guide/" or "nav:Guide" or "optional"), for curation. */
  id: string;
  name: string;
  optional: boolean;
  entries: LlmsEntry[];
  tokens: number;
}

/** A stored page the evidence says is not documentation, for the Review to list with why. */
export interface NotDocsEntry {
  key: string;
  title: string;
  url: string;
  /** Why, in words (`PageRecord.notDocs`). */
  reason: string;
  /** The user brought it back (`Curation.included`, and not left out since): it is in the files like any page. */
  included: boolean;
}

export interface GeneratedOutput {
  title: string;
  summary?: string;
  details: string;
  sections: LlmsSectionModel[];
  /** Pages left out as not documentation and those brought back, ordered by URL. */
  notDocs: NotDocsEntry[];
  llmsTxt: string;
  llmsFullTxt: string;
  tokens: { llmsTxt: number; llmsFullTxt: number };
  /** Every listed page's body token count, by page key, for the caller to keep (see renderLlmsFull). */
  fullTokens: Map<string, BodyTokens>;
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
