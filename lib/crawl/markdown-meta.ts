/**
 * Title, description and links of a page that arrived as Markdown (a twin, or a
 * server that negotiated text/markdown), where there is no HTML to read them from.
 */
import { isWeakDescription } from '../convert/page-text';

const HEADING = /^#\s+(.+?)\s*#*\s*$/m;
const FRONT_MATTER = /^---\r?\n[\s\S]*?\r?\n---\r?\n/;

/** The first H1, else front-matter `title:`, else null. */
export function markdownTitle(markdown: string): string | null {
  const fm = FRONT_MATTER.exec(markdown)?.[0];
  const fmTitle = fm ? /^title:\s*["']?(.+?)["']?\s*$/m.exec(fm)?.[1] : undefined;
  const h1 = HEADING.exec(markdown.replace(FRONT_MATTER, ''))?.[1];
  return h1?.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*_]/g, '').trim() || fmTitle || null;
}

/** The first prose paragraph (not a heading, list, quote, table, code or HTML), trimmed to ~300 chars. */
export function markdownDescription(markdown: string): string | undefined {
  const body = markdown.replace(FRONT_MATTER, '').replace(/```[\s\S]*?```/g, '');
  for (const block of body.split(/\n\s*\n/)) {
    const text = block.trim();
    if (!text || /^(#|[-*+]\s|\d+\.\s|>|\||<|!\[|```|~~~)/.test(text) || text.length < 40) continue;
    const plain = text.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*_]/g, '').replace(/\\(.)/g, '$1').replace(/\s+/g, ' ');
    // A copyright line, a version note or a sentence introducing a list is no description.
    if (isWeakDescription(plain)) continue;
    return plain.length > 300 ? `${plain.slice(0, 300).replace(/\s+\S*$/, '')}…` : plain;
  }
  return undefined;
}

/** Link targets in Markdown ([text](url), <https://…> autolinks), resolved against the page URL. */
export function markdownLinks(markdown: string, baseUrl: string): string[] {
  const out: string[] = [];
  const patterns = [/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g, /<(https?:\/\/[^>\s]+)>/g];
  for (const re of patterns) {
    for (const m of markdown.matchAll(re)) {
      const target = m[1];
      if (!target) continue;
      try {
        out.push(new URL(target, baseUrl).href);
      } catch {
        // Not a URL (e.g. a footnote marker); nothing to follow.
      }
    }
  }
  return out;
}
