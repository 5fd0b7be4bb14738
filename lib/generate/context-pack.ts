/**
 * Context packs: the site (or one of its nested files' sections) as one Markdown file that fits a
 * model's context window. Pages in reading order (the table of contents' order, Optional last),
 * whole pages only: a page that does not fit is left out and the next ones are tried. At the top, a
 * short table of contents and the list of what was left out, which together name every page. The
 * token count given is the exact o200k count of the text.
 */
import { BodyCounts } from './body-counts';
import { assembleFull, bodyOf, countFull, type FullIndexEntry, type FullPart } from './full-text';
import { leanMarkdown } from './lean-links';
import type { NestedFile } from './nested';
import { fileParts, type OutputFiles } from './output-files';
import { headLines } from './render';
import { headingLine } from './text';
import { countTokens } from '../tokens';
import { dedupeKey } from '../url/normalize';

/** The budgets offered (tokens): common context windows. */
export const PACK_BUDGETS = [32_000, 128_000, 200_000, 1_000_000] as const;

export interface PackInput {
  /** The site's llms-full.txt of the version the files describe. */
  fullText: string;
  files: OutputFiles;
  /** What the pack holds: a file of the layout (the root for the whole site) or a section of it. */
  scope: PackScope;
  origin: string;
  /** Tokens the pack may have. */
  budget: number;
  lean: boolean;
  /** The section each page is listed in (names the groups of the contents). */
  sectionOf: (key: string) => string;
  /** Titles of pages the full text does not hold (listed-only pages), by key. */
  titleOf: (key: string) => string;
  count?: (text: string) => number;
}

/** The pages a pack is made of, in reading order, and how the pack names them. */
export type PackScope = Pick<NestedFile, 'title' | 'summary' | 'url' | 'keys'>;

export interface ContextPack {
  text: string;
  /** Exact o200k tokens of `text`. */
  tokens: number;
  included: string[];
  leftOut: string[];
}

// The names lists may take at most this share of the budget; past it they name sections only.
const NAMES_SHARE = 0.25;

/** "- Section (3 pages): A; B; C" lines, pages grouped by section in order. */
function nameLines(keys: string[], input: PackInput, titles: boolean): string[] {
  const groups = new Map<string, string[]>();
  for (const key of keys) {
    const section = input.sectionOf(key);
    groups.set(section, [...(groups.get(section) ?? []), input.titleOf(key)]);
  }
  return [...groups].map(([section, names]) => `- ${section} (${names.length.toLocaleString('en')} ${names.length === 1 ? 'page' : 'pages'})${titles ? `: ${names.join('; ')}` : ''}`);
}

function preamble(input: PackInput, included: string[], leftOut: string[], titles: boolean): string {
  const total = included.length + leftOut.length;
  const lines = [
    '',
    `${included.length.toLocaleString('en')} of ${total.toLocaleString('en')} pages listed in ${input.scope.url}, in reading order, whole pages only, to fit ${input.budget.toLocaleString('en')} tokens (o200k_base). Made by llms.txt Scout.${input.lean ? ' Links within the site are relative to the Source line above them; a link to an anchor on a page in this file is left as its text.' : ''}`,
    '',
    'Contents:',
    ...nameLines(included, input, titles),
  ];
  if (leftOut.length > 0) lines.push('', 'Left out (did not fit):', ...nameLines(leftOut, input, titles));
  if (!titles) lines.push('', `Every page is listed by name in ${input.scope.url}.`);
  return `${lines.join('\n')}\n`;
}

/**
 * Builds the pack. Pages are chosen in order, each costed exactly with its links made lean for the
 * pages chosen so far and itself; choosing more pages only turns more links into text, so the
 * final text (lean for the final set) is no bigger than the sum of those costs. A page whose body
 * cannot fit even at its leanest (its count in the site's llms-full.txt) is skipped uncounted.
 */
export function buildContextPack(input: PackInput): ContextPack {
  const count = input.count ?? countTokens;
  const head = { title: `${input.scope.title} — context pack`, ...(input.scope.summary ? { summary: input.scope.summary } : {}) };
  const byKey = new Map<string, FullIndexEntry>(input.files.index.map((entry) => [entry.key, entry]));
  const keys = input.scope.keys;
  // The two lists name every page once whatever is chosen, so their size is known up front
  // (give or take a section named in both).
  const titles = count(preamble(input, [], keys, true)) <= input.budget * NAMES_SHARE;
  const sections = new Set(keys.map(input.sectionOf)).size;
  let room = input.budget - count(preamble(input, [], keys, titles)) - count(`${headLines(head).join('\n')}\n`) - 16 * sections - 32;
  const counts = new BodyCounts(new Map(), count);
  const inPack = new Set<string>();
  const context = { origin: input.origin, inFile: (key: string) => inPack.has(key) };
  const linkKeys = new Map<string, string>();
  const chosen: string[] = [];
  for (const key of keys) {
    const entry = byKey.get(key);
    if (!entry) continue;
    const header = count(`## ${headingLine(entry.title, entry.url)}\nSource: ${entry.url}\n\n`);
    if ((entry.tokens ?? 0) + header > room) continue;
    const own = [dedupeKey(entry.url), ...(entry.link ? [dedupeKey(entry.link)] : [])];
    const added = own.filter((k) => !inPack.has(k));
    for (const k of added) inPack.add(k);
    const body = bodyOf(input.fullText, entry);
    const cost = header + counts.get(key, input.lean ? leanMarkdown(body, entry.url, context, linkKeys) : body);
    if (cost <= room) {
      chosen.push(key);
      room -= cost;
    } else {
      for (const k of added) inPack.delete(k);
    }
  }
  // The exact count of the final text; should a page's count still not fit (BPE is not strictly
  // monotonic), the last chosen pages go back out.
  for (;;) {
    const included = new Set(chosen);
    const leftOut = keys.filter((key) => !included.has(key));
    const parts: FullPart[] = fileParts(input.fullText, input.files.index, chosen, { origin: input.origin, lean: input.lean }, linkKeys);
    const intro = preamble(input, chosen, leftOut, titles);
    const tokens = countFull(head, parts, count, (part) => counts.get(part.key, part.body), intro);
    if (tokens <= input.budget || chosen.length === 0) {
      return { text: assembleFull(head, parts, intro), tokens, included: [...chosen], leftOut };
    }
    chosen.pop();
  }
}
