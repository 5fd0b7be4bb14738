import { hostnameOf } from './private-network';
import { isSameSite } from './site';

/**
 * The `credentials` mode for a request to `targetUrl` while working on `siteUrl`'s site:
 * 'include' on the same registrable domain (logged-in docs need the user's cookies),
 * 'omit' anywhere else — another site never gets the user's session with it just because
 * a page linked there. Pass the result as fetch's `credentials`: in the browser that is what
 * decides whether the cookie jar is used.
 */
export function credentialsFor(targetUrl: string, siteUrl: string): RequestCredentials {
  const target = hostnameOf(targetUrl);
  const site = hostnameOf(siteUrl);
  return target !== null && site !== null && isSameSite(target, site) ? 'include' : 'omit';
}

