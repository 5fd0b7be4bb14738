/**
 * Why a response with this status was not read, in the words every list shows (a crawled page, a
 * sitemap, an llms.txt probe): one table, so the same answer reads the same everywhere. Null for 2xx.
 * `loggedIn` adds the hint that matters for pages behind a login (Scout fetches with the user's cookies).
 */
export function statusReason(status: number, options: { loggedInHint?: boolean } = {}): string | null {
  if (status >= 200 && status < 300) return null;
  if (status === 404) return 'Not found (HTTP 404)';
  if (status === 410) return 'Gone (HTTP 410)';
  if (status === 401 || status === 403) return `Access denied (HTTP ${status})${options.loggedInHint ? ' — are you logged in?' : ''}`;
  return `The server answered HTTP ${status}`;
}

/** Not found or gone: the file does not exist (as opposed to an error reading it). */
export const isMissingStatus = (status: number) => status === 404 || status === 410;
