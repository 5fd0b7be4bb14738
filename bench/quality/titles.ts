/**
 * Metric 2 — titles still carrying the site name.
 *
 * A title carries the site name when the name is a *separable part* of it: the title splits at a
 * separator (" — ", " – ", " - ", " | ", " · ", " » ", " › ", " :: ", ": ", or a closing
 * "(…)") into a part that is the site name and a non-empty rest. "Writing views — Django
 * documentation", "Installation - The Rust Programming Language", "Flask Documentation (2.2.x) »
 * API", "json-c: json_object.h File Reference", "Document (jsoup Java HTML Parser 1.15.3 API)" all
 * do; "Installing Flask" and a home page titled exactly with the site name do not (nothing to strip).
 *
 * "Is the site name" compares the *core* of both strings: lower-cased, punctuation folded to spaces,
 * version numbers ("3.2.25", "v20.1.0", "(2.2.x)") and the generic words "documentation", "docs",
 * "manual", "the", "official" left out. So "Django 3.2.25 documentation" is the name "Django
 * documentation", and "Node.js v20.19.2 documentation" is "Node.js documentation". A name whose core
 * is empty ("Documentation", "Docs") is not used: it would match any generic suffix.
 *
 * The names: the matrix's `siteName`, the generated H1, and the names the site *presents* — a part
 * of the stored page titles (as the site wrote them) that recurs on ≥ 40 % of them (at least 5) and
 * holds the site name's words: Javadoc's "jsoup Java HTML Parser 1.15.3 API" for the site "jsoup".
 *
 * The home page (`homeUrls`) may be called "Name: tagline" ("Requests: HTTP for Humans™"): there
 * the name is the page's own title, unless the rest is the name again ("json-c: json-c").
 *
 * Checked: every llms.txt entry title, and every H2 section name except "Optional".
 */

const SEPARATORS = [' — ', ' – ', ' - ', ' | ', ' · ', ' » ', ' › ', ' :: ', ': ', ' —', '— '];
const GENERIC = new Set(['documentation', 'docs', 'doc', 'manual', 'the', 'official', 'online', 'reference', 'site']);

/** The comparable core of a name or a title part (see the module comment). */
export function nameCore(text: string): string {
  return text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/\(\s*v?\d+(?:\.(?:\d+|x))*[a-z0-9.-]*\s*\)/g, ' ') // (2.2.x), (v1.2)
    .replace(/\bv?\d+(?:\.(?:\d+|x))+[a-z0-9-]*\b/g, ' ') // 3.2.25, v20.19.2
    .replace(/\b(?:version|release)\s+\d+\b/g, ' ')
    .replace(/[^\p{L}\p{N}+#]+/gu, ' ')
    .split(' ')
    .filter((w) => w && !GENERIC.has(w))
    .join(' ');
}

/** Every way to cut `title` in two at a separator: [before, after], both non-empty, trimmed. */
export function titleSplits(title: string): [string, string][] {
  const text = title.trim();
  const out: [string, string][] = [];
  for (const sep of SEPARATORS) {
    let at = text.indexOf(sep);
    while (at >= 0) {
      const before = text.slice(0, at).trim();
      const after = text.slice(at + sep.length).trim();
      if (before && after) out.push([before, after]);
      at = text.indexOf(sep, at + 1);
    }
  }
  // "Page (Site Name)": the last parenthesis closing the title. "(2.2.x)" alone is a version, not a name.
  const paren = /^(.*\S)\s+\(([^()]+)\)$/.exec(text);
  if (paren?.[1] && paren[2] && /\p{L}{2}/u.test(paren[2])) out.push([paren[1].trim(), paren[2].trim()]);
  return out;
}

/**
 * The site name found as a separable part of `title`, or null. Every separator occurrence is tried
 * (a name may itself contain one), as a suffix ("… — Name") and as a prefix ("Name » …").
 * With `home`, a prefix followed by a tagline is the page's own title (see the module comment).
 */
export function siteNamePart(title: string, names: string[], home = false): string | null {
  const cores = [...new Set(names.map(nameCore).filter(Boolean))];
  if (cores.length === 0) return null;
  for (const [before, after] of titleSplits(title)) {
    if (cores.includes(nameCore(after))) {
      return after;
    }
    if (cores.includes(nameCore(before))) {
      if (home && !cores.includes(nameCore(after))) continue;
      return before;
    }
  }
  return null;
}

/**
 * The names a site presents in its titles (see the module comment): title parts on ≥ `share` of
 * `titles` (and at least `minTitles`) whose core holds one of `names`' cores as whole words.
 */
export function presentedNames(titles: string[], names: string[], share = 0.4, minTitles = 5): string[] {
  const cores = [...new Set(names.map(nameCore).filter(Boolean))];
  const counts = new Map<string, number>();
  for (const title of titles) {
    const parts = new Set(titleSplits(title).flat().map((p) => p.replace(/\s+/g, ' ')));
    for (const part of parts) counts.set(part, (counts.get(part) ?? 0) + 1);
  }
  const threshold = Math.max(minTitles, Math.ceil(share * titles.length));
  return [...counts]
    .filter(([part, n]) => n >= threshold && cores.some((core) => ` ${nameCore(part)} `.includes(` ${core} `)))
    .map(([part]) => part);
}

export interface TitleSection {
  name: string;
  optional: boolean;
  entries: { title: string; url: string }[];
}

export interface TitleFinding {
  where: 'entry' | 'section';
  title: string;
  /** The part that is the site name. */
  part: string;
  url?: string;
}

export interface TitlesResult {
  /** Entry titles and section names carrying the site name. */
  count: number;
  entries: number;
  sections: number;
  examples: TitleFinding[];
}

/** Metric 2 over a generated llms.txt model; `homeUrls`: the site's root and start page. */
export function titlesWithSiteName(sections: TitleSection[], names: string[], keepExamples = 10, homeUrls: string[] = []): TitlesResult {
  const findings: TitleFinding[] = [];
  const home = new Set(homeUrls);
  for (const section of sections) {
    if (!section.optional) {
      const part = siteNamePart(section.name, names);
      if (part) findings.push({ where: 'section', title: section.name, part });
    }
    for (const entry of section.entries) {
      const part = siteNamePart(entry.title, names, home.has(entry.url));
      if (part) findings.push({ where: 'entry', title: entry.title, part, url: entry.url });
    }
  }
  const sectionCount = findings.filter((f) => f.where === 'section').length;
  return {
    count: findings.length,
    entries: findings.length - sectionCount,
    sections: sectionCount,
    // Section findings first: there are few, and they are the most visible.
    examples: [...findings.filter((f) => f.where === 'section'), ...findings.filter((f) => f.where === 'entry')].slice(0, keepExamples),
  };
}
