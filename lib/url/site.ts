import { parse } from 'tldts';

/** What Scout knows about a page's site before fetching anything. */
export interface SiteInfo {
  origin: string;
  host: string;
  /** Registrable domain, e.g. example.co.uk for docs.example.co.uk; the host itself when there is none. */
  site: string;
  /** Host permission match patterns covering the site and its subdomains. */
  hostPatterns: string[];
}

/**
 * Registrable domain via the Public Suffix List, or null for IP literals and
 * single-label names (localhost, intranet hosts). Private suffixes count
 * (allowPrivateDomains), so alice.github.io and bob.github.io are different sites.
 */
export function registrableDomain(host: string): string | null {
  const parsed = parse(host, { allowPrivateDomains: true });
  if (parsed.isIp || !parsed.domain || !host.includes('.')) return null;
  return parsed.domain;
}

/** True when two hosts belong to the same registrable domain (or are the same host). */
export function isSameSite(hostA: string, hostB: string): boolean {
  if (hostA === hostB) return true;
  const a = registrableDomain(hostA);
  return a !== null && a === registrableDomain(hostB);
}

/** Site facts for an http(s) URL. Throws on anything else; call `classifyTarget` first. */
export function siteInfo(pageUrl: string): SiteInfo {
  const url = new URL(pageUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`Not a web page: ${url.protocol}`);
  }
  const host = url.hostname;
  const domain = registrableDomain(host);
  // Match patterns ignore ports; `*.` covers subdomains but not the bare name, hence both.
  const hostPatterns = domain ? [`*://${domain}/*`, `*://*.${domain}/*`] : [`*://${host}/*`];
  return { origin: url.origin, host, site: domain ?? host, hostPatterns };
}
