/**
 * The network fetch of the commands that crawl or check a site (lint's URLs, generate, check,
 * serve, refresh). Apart from ./common so that a command that needs no network (mcp, --help)
 * does not load undici and the URL guard at start.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { Agent } from 'undici';
import { guardedFetch } from '../lib/fetch/guarded-fetch';
import { createNetworkGuard, privateHostReason } from '../lib/url/private-network';

const USER_AGENT = 'llms-txt-scout-cli/0.1 (+https://llmstxt.org)';

/**
 * The only way a command reaches the network: Node's fetch behind the private-network guard of
 * the URL the command started from (guardedFetch, lib/fetch/guarded-fetch.ts), every request and
 * every redirect hop judged before it is sent, saying who is asking (sites log it; some refuse
 * requests without a user agent). From a public start nothing on the user's machine or network
 * is requested — not by its URL, nor by a public name that resolves there (resolvingFetch);
 * from a private start, only that host. `transport` replaces Node's network underneath the
 * guard (tests map their host names to loopback with it).
 */
export function commandFetch(startUrl: string, transport: typeof fetch = resolvingFetch(startUrl)): typeof fetch {
  const guarded = guardedFetch(transport, createNetworkGuard(startUrl));
  return (input, init) => {
    const headers = new Headers(init?.headers);
    if (!headers.has('user-agent')) headers.set('user-agent', USER_AGENT);
    return guarded(input, { ...init, headers });
  };
}

/**
 * Node's fetch, refusing to connect to a private, loopback or link-local address that a host
 * name resolved to — unless the name is the start's own host (the user's intranet docs under a
 * public-looking name). The guard judges names as written; this judges where DNS sends them,
 * on the address actually connected to, so a name that resolves one way when judged and another
 * when connecting gains nothing. `lookup` is node:dns's unless given (tests give their own).
 */
export function resolvingFetch(startUrl: string, lookup: typeof dnsLookup = dnsLookup): typeof fetch {
  const startHost = new URL(startUrl).hostname.toLowerCase();
  const dispatcher = new Agent({ connect: { lookup: guardedLookup(startHost, lookup) } });
  return (input, init) => fetch(input, { ...init, dispatcher } as RequestInit);
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

function guardedLookup(startHost: string, lookup: typeof dnsLookup) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      if (hostname.toLowerCase().replace(/\.$/, '') !== startHost) {
        for (const { address } of addresses) {
          const reason = privateHostReason(address);
          if (reason) return callback(Object.assign(new Error(`${hostname} resolves to ${reason.charAt(0).toLowerCase()}${reason.slice(1)}`), { code: 'EPRIVATEADDRESS' }), []);
        }
      }
      const [first] = addresses;
      if (options.all) callback(null, addresses);
      else if (first) callback(null, first.address, first.family);
      else callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
    });
  };
}
