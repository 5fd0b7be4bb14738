import { NetworkRefused } from './guarded-fetch';

/** A failed fetch in plain words. */
export function describeNetworkError(error: unknown): string {
  // Nothing was sent: "could not connect" would hide that Scout chose not to.
  if (error instanceof NetworkRefused) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  // Chrome says "Failed to fetch", Firefox "NetworkError…": no detail is exposed to pages.
  if (/Failed to fetch|NetworkError/i.test(message)) return 'Could not connect (network error, blocked, or no access to this site)';
  return `Could not connect: ${networkDetail(error)}`;
}

/** Node's fetch says "fetch failed" / "terminated" and puts the useful part ("other side closed", "ECONNREFUSED") in `cause`. */
export function networkDetail(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : '';
  return cause || message;
}
