/**
 * Theme chrome that survived conversion, found by repetition: a block of Markdown at the top or
 * the bottom of many pages (a site-title heading, "Home | Contents | Index" bars, "« previous |
 * up | next »" pagers, "© Copyright … Created using Sphinx" footers) is the site's frame, not the
 * page. Per-theme selectors cannot know every theme; repetition across the site does.
 */

/** One Markdown block (paragraphs, lists, headings, fenced code) with its position. */
interface Block {
  text: string;
  code: boolean;
}

// A block on at least this share of pages (and on at least MIN_PAGES) is the site's, not the page's.
const SHARE = 0.3;
const MIN_PAGES = 3;
// Below this many pages there is no "site" to compare with: nothing is stripped.
const MIN_SITE = 5;
// A pager shows other pages' titles each time; its shape repeats when its words don't. A block is
// a pager by shape when it is mostly links (this many at least) with a few words around them.
const MIN_SHAPE_LINKS = 2;
const MAX_SHAPE_WORDS = 6;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const LINK = /(?<!\\)!?\[((?:[^[\]\\]|\\.)*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"]*")?\)/g;

/** Splits Markdown into blocks at blank lines, keeping fenced code whole. */
function blocksOf(markdown: string): Block[] {
  const blocks: Block[] = [];
  let lines: string[] = [];
  let fence = '';
  const flush = (code: boolean) => {
    if (lines.length) blocks.push({ text: lines.join('\n'), code });
    lines = [];
  };
  for (const line of markdown.split('\n')) {
    const marker = FENCE.exec(line)?.[1];
    if (fence) {
      lines.push(line);
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) {
        flush(true);
        fence = '';
      }
      continue;
    }
    if (marker) {
      flush(false);
      fence = marker;
      lines.push(line);
      continue;
    }
    if (line.trim() === '') flush(false);
    else lines.push(line);
  }
  flush(fence !== '');
  return blocks;
}

/** The block's text, whitespace-collapsed and lower-cased: equal on every page it repeats on. */
function exactKey(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

/** The block with link texts and targets blanked, when it is link-dominated (a pager, a nav bar). */
function shapeKey(text: string): string | undefined {
  let links = 0;
  const shape = text.replace(LINK, () => {
    links++;
    return '[]';
  });
  if (links < MIN_SHAPE_LINKS) return undefined;
  const words = shape.replace(/\[\]/g, ' ').split(/\s+/).filter((word) => /\p{L}/u.test(word));
  if (words.length > MAX_SHAPE_WORDS) return undefined;
  return `shape:${shape.replace(/\d+/g, '0').replace(/\s+/g, ' ').trim().toLowerCase()}`;
}

// A one- or two-word block ("Note", "See also") is an admonition's label: content, however often it
// repeats. A heading is different: a "## GIT" closing every man page is the site's frame.
const MIN_CHROME_WORDS = 3;

function keysOf(block: Block): string[] {
  if (block.code) return [];
  const words = block.text.split(/\s+/).filter((word) => /\p{L}/u.test(word)).length;
  if (words > 0 && words < MIN_CHROME_WORDS && !block.text.includes('](') && !/^#{1,6}\s/.test(block.text)) return [];
  const shape = shapeKey(block.text);
  return shape ? [exactKey(block.text), shape] : [exactKey(block.text)];
}

/**
 * A function that removes the site's repeated edge blocks from one page's Markdown, learned from
 * all of `markdowns`. Only the leading and trailing runs are touched (a unique heading inside the
 * leading run is kept): a note that repeats in the middle of many pages is content.
 */
export function learnBoilerplate(markdowns: string[]): (markdown: string) => string {
  if (markdowns.length < MIN_SITE) return (markdown) => markdown;
  const pagesPerKey = new Map<string, number>();
  // Every prose block's exact text, short ones too: what a frame's tail is matched by.
  const pagesPerText = new Map<string, number>();
  for (const markdown of markdowns) {
    const seen = new Set<string>();
    const texts = new Set<string>();
    for (const block of blocksOf(markdown)) {
      for (const key of keysOf(block)) seen.add(key);
      if (!block.code) texts.add(exactKey(block.text));
    }
    for (const key of seen) pagesPerKey.set(key, (pagesPerKey.get(key) ?? 0) + 1);
    for (const text of texts) pagesPerText.set(text, (pagesPerText.get(text) ?? 0) + 1);
  }
  const threshold = Math.max(MIN_PAGES, Math.ceil(SHARE * markdowns.length));
  const repeated = new Set([...pagesPerKey].filter(([, count]) => count >= threshold).map(([key]) => key));
  if (repeated.size === 0) return (markdown) => markdown;
  const isChrome = (block: Block) => keysOf(block).some((key) => repeated.has(key));
  // Below a site's frame a generator may append blocks that only some kinds of page get (rustdoc
  // inlines the same blanket-implementation docs at the end of every type page, one more impl on
  // iterator types): repeated verbatim on a few pages, and part of the frame when they sit after it.
  const isFrameTail = (block: Block) => !block.code && (pagesPerText.get(exactKey(block.text)) ?? 0) >= MIN_PAGES;
  const isHeading = (block: Block) => !block.code && /^#{1,6}\s/.test(block.text) && !block.text.includes('\n');

  return (markdown) => {
    const blocks = blocksOf(markdown);
    const keep = blocks.map(() => true);
    // Leading run: chrome and the page's own headings, up to its first content block. A plain
    // sub-heading that many pages share ("### Synopsis" on every command page) is structure, not
    // chrome; a site-title heading is an H1 or a link.
    for (let i = 0; i < blocks.length; i++) {
      const block = blocks[i] as Block;
      const structure = isHeading(block) && !/^#\s/.test(block.text) && !block.text.includes('](');
      if (!structure && isChrome(block)) keep[i] = false;
      else if (!isHeading(block)) break;
    }
    // Trailing run: chrome, and blocks repeated on a few pages that sit below chrome. The run
    // ends at the first block that repeats on fewer; it is cut from its topmost chrome block on,
    // so a few pages' shared note above the frame stays.
    //
    // A heading is the page's own: it ends the run, and the body of its section (the blocks up to
    // the next heading) stays with it, chrome-shaped or not (a "See also" list of two links has a
    // pager's shape). Only a section that is itself the frame goes whole: everything below it is
    // being cut, its heading repeats word for word on several pages and every block of its body on
    // most ("## GIT" over "Part of the git(1) suite"; a member every type inherits, with the
    // summary it inherits). An option's docs that a few command pages share ("Default: false"
    // above the option's own description) are not on most pages.
    let cut = blocks.length;
    for (let i = blocks.length - 1; i >= 0; i--) {
      const block = blocks[i] as Block;
      if (isHeading(block)) {
        let end = i + 1;
        while (end < blocks.length && !isHeading(blocks[end] as Block)) end++;
        const body = blocks.slice(i + 1, end);
        // Body blocks too short to be told apart from a label ("Calls `U::from(self)`.") need only
        // repeat on several pages; every other one on most.
        const common = (b: Block) => repeated.has(exactKey(b.text)) || (isFrameTail(b) && keysOf(b).length === 0);
        const frameSection = cut <= end && isFrameTail(block)
          && (body.length === 0 ? cut === i + 1 && end < blocks.length : body.every(common) && [block, ...body].some((b) => repeated.has(exactKey(b.text))));
        if (frameSection) {
          cut = i;
          continue;
        }
        // Its body stays down to its last block that is not on most pages word for word; a
        // footer below that, which Markdown cannot set apart from the last section, still goes.
        let last = end - 1;
        while (last > i && repeated.has(exactKey((blocks[last] as Block).text))) last--;
        cut = Math.max(cut, last + 1);
        break;
      }
      if (isChrome(block)) cut = i;
      else if (!isFrameTail(block)) break;
    }
    for (let i = cut; i < blocks.length; i++) keep[i] = false;
    if (keep.every(Boolean)) return markdown;
    return blocks.filter((_, i) => keep[i]).map((block) => block.text).join('\n\n');
  };
}
