/**
 * What generation makes and the store keeps: the model behind a version's llms.txt, the files laid
 * out for it, the user's curation and the cached page-body counts. In the store so the schema
 * depends on nothing above it; lib/generate/ re-exports each name where it was defined before.
 */

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

export interface OutputSettings {
  /** Characters an llms.txt may have (agents' tools cut files near 100,000; 50,000 is the common advice). */
  budget: number;
  /** 'nested': per-section files when the flat llms.txt is over the budget; 'flat': always one file. */
  layout: 'nested' | 'flat';
  /** Token-lean links in llms-full.txt files and context packs (see lean-links.ts). */
  leanLinks: boolean;
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
  /** The site chrome learned from the pages and stripped from each in llms-full.txt, for the caller to keep. */
  chrome: ChromeModel;
}

/** One llms.txt of the layout, with the llms-full.txt that sits beside it. */
export interface NestedFile {
  /** Path on the site: "/llms.txt", "/library/llms.txt". */
  path: string;
  url: string;
  fullPath: string;
  fullUrl: string;
  title: string;
  summary?: string;
  /** The file that links here; none for the root. */
  parent?: string;
  depth: number;
  text: string;
  /** Every page under this file, its own and its child files', in the file's order (its llms-full order). */
  keys: string[];
  /** Pages this file lists itself rather than through a child file. */
  listed: number;
}

/** Where one page is in the site's llms-full.txt. */
export interface FullIndexEntry {
  key: string;
  title: string;
  /** The page's address (its `Source:` line). */
  url: string;
  /** The address llms.txt links to when it is not the page's own (its Markdown twin). */
  link?: string;
  /** The body (headings already demoted) is `text.slice(bodyStart, bodyEnd)`; empty when equal. */
  bodyStart: number;
  bodyEnd: number;
  /** Tokens of the body as the site's llms-full.txt has it (lean when links are), for estimates. */
  tokens?: number;
}

/** A file of the layout with what the Output tab shows about it. */
export interface OutputFile extends NestedFile {
  chars: number;
  tokens: number;
  /** The llms-full.txt beside it: every page under the file that the site's llms-full.txt has. */
  full: { chars: number; tokens: number; pages: number };
}

export interface OutputFiles {
  settings: OutputSettings;
  /** Characters of the flat llms.txt, to say why the layout is nested. */
  flatChars: number;
  /** Parents before children; the first is the root /llms.txt. */
  files: OutputFile[];
  /** Where each page is in the site's llms-full.txt of the same version. */
  index: FullIndexEntry[];
  /**
   * The site chrome this version's generation learned from its pages (lib/generate/boilerplate.ts),
   * so whatever serves a stored page strips the same frame llms-full.txt did without learning it
   * again. Absent on versions made before it was kept.
   */
  chrome?: ChromeModel;
}

/**
 * The site's repeated edge blocks as learned across its pages: the keys of the blocks on a share
 * of the pages, and the exact texts of the prose blocks on a few (a frame's tail). Sorted lists;
 * `v` is the version of the strip that reads them (lib/generate/boilerplate.ts).
 */
export interface ChromeModel {
  v: number;
  repeated: string[];
  frameTail: string[];
}

/** Counts kept on a page: body fingerprint → tokens of `${body}\n\n`. */
export type StoredCounts = Array<{ f: string; n: number }>;

