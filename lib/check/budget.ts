/** What an agent reads whole: the size rules the linter applies to an llms.txt (lib/headless/lint.ts and the Check tab). */
import { DEFAULT_OUTPUT_SETTINGS } from '../generate/output-settings';

/** Characters an llms.txt should stay under: the common advice, and Scout's default nesting budget. */
export const RECOMMENDED_CHARS = DEFAULT_OUTPUT_SETTINGS.budget;
/** Characters past which agents' tools truncate a file (about 100,000): the end of the file is lost. */
export const HARD_LIMIT_CHARS = 100_000;
