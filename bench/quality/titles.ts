/**
 * Metric 2 — titles still carrying the site name.
 *
 * A title carries the site name when the name is a *separable part* of it: the title splits at a
 * separator (" — ", " – ", " - ", " | ", " · ", " » ", " › ", " :: ", ": ") into a part that is the site
 * name and a non-empty rest. "Writing views — Django documentation", "Installation - The Rust
 * Programming Language", "Flask Documentation (2.2.x) » API" all do; "Installing Flask" and a home
 * page titled exactly with the site name do not (nothing to strip).
 *
 * "Is the site name" compares the *core* of both strings: lower-cased, punctuation folded to spaces,
 * version numbers ("3.2.25", "v20.1.0", "(2.2.x)") and the generic words "documentation", "docs",
 * "manual", "the", "official" left out. So "Django 3.2.25 documentation" is the name "Django
 * documentation", and "Node.js v20.19.2 documentation" is "Node.js documentation". A name whose core
 * is empty ("Documentation", "Docs") is not used: it would match any generic suffix.
 *
 * Checked: every llms.txt entry title, and every H2 section name except "Optional"; against each
 * given name (the matrix's `siteName` and the generated H1).
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

/**
 * The site name found as a separable part of `title`, or null. Every separator occurrence is tried
 * (a name may itself contain one), as a suffix ("… — Name") and as a prefix ("Name » …").
 */
export function siteNamePart(title: string, names: string[]): string | null {
  const cores = [...new Set(names.map(nameCore).filter(Boolean))];
  if (cores.length === 0) return null;
  const text = title.trim();
  for (const sep of SEPARATORS) {
    let at = text.indexOf(sep);
    while (at >= 0) {
      const before = text.slice(0, at).trim();
      const after = text.slice(at + sep.length).trim();
      if (before && after) {
        if (cores.includes(nameCore(after))) return after;
        if (cores.includes(nameCore(before))) return before;
      }
      at = text.indexOf(sep, at + 1);
    }
  }
  return null;
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

/** Metric 2 over a generated llms.txt model. */
export function titlesWithSiteName(sections: TitleSection[], names: string[], keepExamples = 10): TitlesResult {
  const findings: TitleFinding[] = [];
  for (const section of sections) {
    if (!section.optional) {
      const part = siteNamePart(section.name, names);
      if (part) findings.push({ where: 'section', title: section.name, part });
    }
    for (const entry of section.entries) {
      const part = siteNamePart(entry.title, names);
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
