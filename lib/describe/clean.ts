/**
 * Model answers to "one plain sentence, please" come back wrapped in fences, bold labels,
 * quotes, lead-ins ("Sure! Here is…"), reasoning blocks, several sentences, or refusals.
 * An llms.txt link note must be one short line of plain text, so everything is cleaned here
 * once, whichever provider answered.
 */

// Reasoning models (DeepSeek R1, Qwen 3…) served through OpenAI-compatible servers often
// put their thinking inline before the answer.
// A block holds no other `<think` (an unclosed one is left alone), so each is read once.
const THINK_BLOCK = /<think(?:ing)?>(?:[^<]|<(?!\/?think))*<\/think(?:ing)?>/gi;
const FENCE_LINE = /^[ \t]*(?:```|~~~)[^\n]*$/gm;
const LEAD_IN = /^(?:(?:sure|certainly|of course|okay|ok)[,.!]?\s*)?(?:here(?:'s| is)\s+(?:a|an|the|my|your)\b[^:]{0,80}:\s*)/i;
const LABEL = /^(?:(?:page\s+|one[- ]sentence\s+|short\s+)?(?:summary|description|note)|tl;?\s?dr|answer|output|result)\s*[:\-–—]\s*/i;
const THIS_PAGE =
  /^(?:this|the)\s+(?:page|document|doc|article|section|guide|tutorial|reference|chapter)\s+(explains|describes|covers|shows|documents|provides|lists|introduces|contains|details|outlines|walks|teaches|gives|presents|summari[sz]es|discusses|defines|demonstrates)\b/i;
const REFUSAL =
  /^(?:i(?:'m| am)\s+(?:sorry|unable|not able)|i\s+(?:cannot|can't|can not|could not|couldn't|won't|am unable|do not|don't)\b|as an ai\b|as a language model\b|sorry\b|unfortunately\b|i apologi[sz]e)/i;
const USELESS = /^(?:n\/?a|none|nothing|no (?:description|content|summary)|unknown|empty|untitled|\.\.\.|…)[.!]?$/i;
// "The provided text does not contain…", "The given page has no content": the model saw nothing
// worth describing. A subject, then a denial later in the same sentence (see saysNoContent).
const NO_CONTENT_SUBJECT = /\b(?:provided|given|supplied)\s+(?:text|content|page|markdown|input|document)\b/gi;
const NO_CONTENT_DENIAL = /\b(?:does not|doesn't|do not|don't|has no|contains no|lacks|is empty|is missing)\b/gi;
const ABBREVIATIONS = new Set(['e.g.', 'i.e.', 'etc.', 'vs.', 'cf.', 'approx.', 'incl.', 'no.', 'fig.', 'mr.', 'ms.', 'dr.', 'st.', 'v.']);

/**
 * One plain sentence of at most `maxChars` characters (cut at a word with "…" when longer),
 * or null when nothing usable is left: empty, a refusal, or a "there is no content" answer.
 */
export function cleanSummary(raw: string, maxChars = 200): string | null {
  let text = raw.replace(THINK_BLOCK, '\n').replace(FENCE_LINE, '\n');
  text = dropLeadInLine(text);
  text = stripMarkdown(text).replace(/\s+/g, ' ').trim();
  // Labels and quotes nest either way round ("Summary: \"…\"", "\"Summary: …\""): peel twice.
  for (let i = 0; i < 2; i++) text = unquote(text.replace(LEAD_IN, '').replace(LABEL, '').trim());
  text = text.replace(THIS_PAGE, (_, verb: string) => verb.charAt(0).toUpperCase() + verb.slice(1).toLowerCase());
  if (text === '' || REFUSAL.test(text) || USELESS.test(text) || saysNoContent(text)) return null;
  text = shorten(firstSentence(text), maxChars);
  return /\p{L}/u.test(text) ? text : null;
}

/**
 * A no-content subject followed by a denial before the sentence's end ('.'). Each subject is paired
 * with the first denial after it, found once for all of them: as one pattern with a lazy gap, a
 * long answer repeating the subject without a full stop is read again from every repetition.
 */
function saysNoContent(text: string): boolean {
  let denial: RegExpExecArray | null | undefined;
  for (const subject of text.matchAll(NO_CONTENT_SUBJECT)) {
    const from = subject.index + subject[0].length;
    if (denial === undefined || (denial !== null && denial.index < from)) {
      NO_CONTENT_DENIAL.lastIndex = from;
      denial = NO_CONTENT_DENIAL.exec(text);
    }
    if (denial === null) return false;
    const stop = text.indexOf('.', from);
    if (stop < 0 || denial.index < stop) return true;
  }
  return false;
}

/** "Here is a description of the page:" alone on the first line, the answer below it. */
function dropLeadInLine(text: string): string {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const first = lines[0]?.trim() ?? '';
  return lines.length > 1 && first.endsWith(':') ? lines.slice(1).join('\n') : lines.join('\n');
}

function stripMarkdown(text: string): string {
  return text
    .replace(/^[ \t]{0,3}#{1,6}[ \t]+/gm, '')
    .replace(/^[ \t]*>[ \t]?/gm, '')
    .replace(/^[ \t]*(?:[-*+•]|\d+[.)])[ \t]+/gm, '')
    .replace(/!?\[([^[\]]*)\]\((?:[^()]|\([^()]*\))*\)/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    // Single * or _ only when they wrap words, so snake_case and 2*3 survive.
    .replace(/(^|[\s(])[*_](\S(?:[^*_]*?\S)?)[*_](?=$|[\s.,;:!?)])/gm, '$1$2')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\*\*/g, '');
}

const QUOTE_PAIRS: Record<string, string> = { '"': '"', '“': '”', '„': '“', '«': '»', "'": "'", '‘': '’' };

/** Removes one pair of quotes around the whole text, when nothing inside uses that quote. */
function unquote(text: string): string {
  const close = QUOTE_PAIRS[text.charAt(0)];
  if (!close || text.length < 2) return text;
  // The closing quote may sit before or after the final full stop.
  const end = text.endsWith(close) ? text.length - 1 : text.endsWith(`${close}.`) ? text.length - 2 : -1;
  if (end < 1) return text;
  const inner = text.slice(1, end);
  if (inner.includes(close) || inner.includes(text.charAt(0))) return text;
  return (inner + text.slice(end + 1)).trim();
}

/** Up to the first sentence end: ". " before a capital or digit, not after "e.g." and friends. */
function firstSentence(text: string): string {
  for (const match of text.matchAll(/[.!?](?=\s+["“‘(]?[\p{Lu}\d])/gu)) {
    const end = match.index + 1;
    const word = (/(?<!\S)\S+$/.exec(text.slice(0, end))?.[0] ?? '').toLowerCase();
    // Initials ("J. R. R. Tolkien") are not sentence ends either.
    if (ABBREVIATIONS.has(word) || /^\p{L}\.$/u.test(word)) continue;
    return text.slice(0, end);
  }
  return text;
}

function shorten(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let cut = text.slice(0, Math.max(1, maxChars - 1));
  const space = cut.lastIndexOf(' ');
  // One enormous word: cut inside it rather than return nearly nothing.
  if (space > maxChars / 2) cut = cut.slice(0, space);
  return `${cut.replace(/(?<![\s,;:.\-–—(])[\s,;:.\-–—(]+$/, '')}…`;
}
