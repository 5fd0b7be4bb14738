/**
 * A page with no readable text (a shell that rendered nothing, a shell kept as fetched because the
 * browser or the command line cannot render it, an HTML page of markup only) is still stored — its
 * URL was reached — but marked empty with the reason, which the page list shows, and left out of
 * llms.txt and llms-full.txt: an entry with nothing behind it only misleads a reader.
 */
import { plainTextLength } from '../shell/detect';
import type { PageOutcome } from './processor';

/** The outcome as it is stored: a page without text gets `empty` (its reason) and says so in its list reason. */
export function markEmpty(outcome: PageOutcome): PageOutcome {
  if (outcome.state !== 'done') return outcome;
  const { page } = outcome;
  // The key is set either way: a refresh spreads the fresh page over the stored one, so a page
  // whose text is back must carry `empty: undefined` to clear the earlier mark.
  if (plainTextLength(page.markdown, 1) > 0) return 'empty' in page ? outcome : { ...outcome, page: { ...page, empty: undefined } };
  const why = page.rendered ? 'no text even once rendered in a tab' : page.shell ? 'no text without running its scripts' : 'no readable text in the page';
  const empty = `Empty page: ${why} — left out of llms.txt and llms-full.txt`;
  return { ...outcome, page: { ...page, empty }, reason: outcome.reason ? `${empty} · ${outcome.reason}` : empty };
}
