/**
 * Token counts with OpenAI's o200k_base encoding (GPT-4o and later), the closest widely used
 * measure of what a file costs in a model's context. gpt-tokenizer is pure JavaScript with the
 * vocabulary bundled, so it works offline and in a service worker.
 */
import { countTokens as countO200k } from 'gpt-tokenizer';

// By default gpt-tokenizer throws on text that contains a special token such as `<|endoftext|>`;
// documentation about tokenizers quotes them, and here they are plain text to be counted.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** o200k_base tokens in `text`; 0 for an empty string. Never throws. */
export function countTokens(text: string): number {
  if (text === '') return 0;
  try {
    return countO200k(text, PLAIN_TEXT);
  } catch {
    // Not expected with special tokens allowed as text; a rough estimate beats failing an export.
    return Math.ceil(text.length / 4);
  }
}
