/**
 * Invariant 4 — each description outside Optional says what the page is, in the page's own
 * words. Beside descriptions.ts's checks (copyright, a colon at the end, too short…), a description
 * is *weak* here when it is
 *  * 'title-echo'          — the title again: no word the title does not have;
 *  * 'title-and-site-name' — the title plus the site's name, with at most generic words besides
 *                            ("Cxx (Lexical Analysis With Flex manual)");
 *  * 'member-text'         — a member's text rather than the page's lead: its first words (up to
 *                            12) are in a paragraph after the page's first h2 or inside a
 *                            definition list's `dd` (page-facts.ts), not in any lead paragraph,
 *                            while the page has a lead paragraph of its own (4 words or more;
 *                            a version note, a copyright line or a "See also" pointer is none);
 *  * 'type-signature'      — code, not prose: a declaration ("public static Document
 *                            parse(String html)", "def get(url, **kwargs)"), or a whole call
 *                            with an optional return type ("connect(url: string): Connection").
 * Entries with no description count as undescribed (the share described is descriptions.ts's).
 */
import { weakReason, type WeakReason } from './descriptions';
import { words } from './page-facts';
import { nameCore } from './titles';

export type LeadWeakReason = 'title-echo' | 'title-and-site-name' | 'member-text' | 'type-signature';

const FILLER = new Set(['the', 'a', 'an', 'of', 'for', 'in', 'on', 'to', 'and', 'with', 'documentation', 'docs', 'doc', 'manual', 'reference', 'guide', 'api', 'version', 'official', 'online', 'site', 'home']);
// Lines a page may open with that say nothing of it: a version note, a copyright line, a pointer
// elsewhere ("See also Python Initialization Configuration."); descriptions.ts calls them weak.
const NOT_A_LEAD = new Set<WeakReason | 'ok'>(['version-note', 'copyright', 'see-also']);
const MEMBER_WORDS = 12;
const LEAD_WORDS = 4;

const DECLARATION = /^(?:@\w+\s+)*(?:(?:public|private|protected|static|final|abstract|export|declare|async|readonly|virtual|inline|extern|const|unsafe|pub(?:\([^)]*\))?|override|sealed|default)\s+)*(?:function\*?|def|class|interface|type|enum|struct|trait|impl|fn|func|let|var|void|int|bool|boolean|char|long|double|float|typedef|template|#define|module|namespace)\s+[\w$<]/;
// A whole call: a short head (at most 5 tokens, the last touching the parenthesis), an argument
// list, and optionally a return type or a terminator; nothing after it.
const CALL = /^[\w$.:<>[\],*& ]*[\w$>\]]\((?:[^()]|\([^()]*\))*\)\s*(?:(?::|->|=>)\s*[\w$.:<>[\]|&,*? ]+|throws\s+[\w$., ]+|const|;)?\s*$/;

/** Whether a description is a type signature rather than prose (see the module comment). */
export function isTypeSignature(text: string): boolean {
  const t = text.trim().replace(/…$/, '').trim();
  if (DECLARATION.test(t) && /[(<:{=]/.test(t) && !/[.!?]\s+\p{Lu}/u.test(t)) return true;
  if (!CALL.test(t)) return false;
  const head = t.slice(0, t.indexOf('(')).trim().split(/\s+/);
  return head.length <= 5;
}

export interface LeadFacts {
  lead: string[];
  members: string[];
}

/** Why a description is weak by invariant 4, or null. `names`: the site's names (siteName, the H1, the names it presents). */
export function leadWeakReason(description: string, title: string, names: string[], facts?: LeadFacts): LeadWeakReason | null {
  const d = words(description.replace(/(?:…|\.\.\.)\s*$/, ''));
  const dWords = d.split(' ').filter(Boolean);
  const titleWords = new Set(words(title).split(' ').filter(Boolean));
  if (dWords.length && dWords.every((w) => titleWords.has(w) || FILLER.has(w))) return 'title-echo';
  const nameWords = new Set(names.flatMap((n) => [...words(n).split(' '), ...nameCore(n).split(' ')]).filter(Boolean));
  if (dWords.length && dWords.every((w) => titleWords.has(w) || nameWords.has(w) || FILLER.has(w) || /^v?\d+$/.test(w)) && dWords.some((w) => nameWords.has(w) && !titleWords.has(w))) return 'title-and-site-name';
  if (isTypeSignature(description)) return 'type-signature';
  // A version note, a copyright line or a pointer elsewhere before the sections is no lead of the
  // page's own: a page that has only such a line says what it is in its first section.
  if (facts?.lead.some((p) => p.split(' ').length >= LEAD_WORDS && !NOT_A_LEAD.has(weakReason(p) ?? 'ok'))) {
    const opening = ` ${dWords.slice(0, MEMBER_WORDS).join(' ')} `;
    const inLead = facts.lead.some((p) => ` ${p} `.includes(opening));
    if (!inLead && dWords.length >= LEAD_WORDS && facts.members.some((p) => ` ${p} `.includes(opening))) return 'member-text';
  }
  return null;
}

export interface LeadDescriptionsResult {
  /** Described entries outside Optional that were checked. */
  checked: number;
  weak: number;
  byReason: Partial<Record<LeadWeakReason, number>>;
  examples: { title: string; url: string; description: string; reason: LeadWeakReason }[];
}

/** Invariant 4 over a site's entries (Optional ones are left out). */
export function leadDescriptionQuality(entries: { title: string; url: string; description?: string; optional: boolean; facts?: LeadFacts }[], names: string[], keepExamples = 12): LeadDescriptionsResult {
  const result: LeadDescriptionsResult = { checked: 0, weak: 0, byReason: {}, examples: [] };
  for (const e of entries) {
    if (e.optional || !e.description?.trim()) continue;
    result.checked += 1;
    const reason = leadWeakReason(e.description, e.title, names, e.facts);
    if (!reason) continue;
    result.weak += 1;
    result.byReason[reason] = (result.byReason[reason] ?? 0) + 1;
    if (result.examples.length < keepExamples && result.examples.filter((x) => x.reason === reason).length < Math.ceil(keepExamples / 3)) {
      result.examples.push({ title: e.title, url: e.url, description: e.description, reason });
    }
  }
  return result;
}
