/**
 * Token counts with OpenAI's o200k_base encoding (GPT-4o and later), the closest widely used
 * measure of what a file costs in a model's context. gpt-tokenizer is pure JavaScript with the
 * vocabulary bundled, so it works offline and in a service worker.
 */
import { countTokens as countO200k } from 'gpt-tokenizer';

// By default gpt-tokenizer throws on text that contains a special token such as `<|endoftext|>`;
// documentation about tokenizers quotes them, and here they are plain text to be counted.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

// Byte-pair merging costs the square of a pre-token's length, and the encoder keeps a run of
// spaces, or of letters or punctuation without a space, as one pre-token: a page of 600 KB of "]("
// took minutes to count. Such a run is counted in pieces of this many characters (each cut can
// change the count by a token or so; the count is a budget, not a bill).
export const MAX_RUN = 256;

/** o200k_base tokens in `text`; 0 for an empty string. Never throws. */
export function countTokens(text: string): number {
  if (text === '') return 0;
  // No run can be longer than the text: a short text (most counted segments) is one piece.
  if (text.length <= MAX_RUN) return countPiece(text);
  let total = 0;
  let from = 0;
  let run = 0;
  let runIsSpace = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const isSpace = code === 32 || (code >= 9 && code <= 13) || (code > 0x7f && isWideSpace(code));
    run = isSpace === runIsSpace ? run + 1 : 1;
    runIsSpace = isSpace;
    if (run > MAX_RUN) {
      total += countPiece(text.slice(from, i));
      from = i;
      run = 1;
    }
  }
  return total + countPiece(text.slice(from));
}

/** The spaces of `\s` above ASCII. */
function isWideSpace(code: number): boolean {
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}

function countPiece(text: string): number {
  if (text === '') return 0;
  try {
    return countO200k(text, PLAIN_TEXT);
  } catch {
    // Not expected with special tokens allowed as text; a rough estimate beats failing an export.
    return Math.ceil(text.length / 4);
  }
}
