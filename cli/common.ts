/** What the commands share: exit codes, usage errors, the network fetch, printing findings. */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { Agent } from 'undici';
import { guardedFetch } from '../lib/fetch/guarded-fetch';
import type { LintReport } from '../lib/headless/lint';
import { createNetworkGuard, privateHostReason } from '../lib/url/private-network';

/** 0: clean. 1: the site or file has errors (or nothing was found / generated). 2: bad usage or unreadable input. 3: a bug. */
export const EXIT = { ok: 0, failed: 1, usage: 2, crashed: 3 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A mistake in the command line or an input that cannot be read: exit 2 with the message. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export interface Io {
  /** Results (stdout). */
  out: (line: string) => void;
  /** Progress and notes (stderr); silent with --quiet. */
  progress: (line: string) => void;
}

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

export const isUrl = (value: string): boolean => /^https?:\/\//i.test(value);

/** An absolute http(s) URL, or a usage error naming the option. */
export function parseUrl(value: string, what: string): URL {
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url;
  } catch {
    // the same message below
  }
  throw new UsageError(`${what} must be an http(s) URL, got "${value}"`);
}

/** A whole number option within [min, max], or a usage error. */
export function intOption(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got "${value}"`);
  return n;
}

export const count = (n: number, word: string, plural = `${word}s`): string => `${n.toLocaleString('en')} ${n === 1 ? word : plural}`;

/** Findings printed per file; a broken file can have thousands (--json has every one). */
const MAX_FINDINGS_SHOWN = 40;

/** A lint report as text: a headline, then one line per finding (the first 40). */
export function lintLines(label: string, report: LintReport, options: { strict?: boolean; indent?: string; limit?: number } = {}): string[] {
  const indent = options.indent ?? '';
  const verdict = report.errors || (options.strict && report.warnings) ? 'FAIL' : 'ok';
  const counts = [count(report.errors, 'error'), count(report.warnings, 'warning'), count(report.infos, 'note')].join(', ');
  const lines = [`${indent}${verdict.padEnd(4)} ${label}: ${report.chars.toLocaleString('en')} characters, ${report.tokens.toLocaleString('en')} tokens; ${counts}`];
  const shown = report.findings.slice(0, options.limit ?? MAX_FINDINGS_SHOWN);
  for (const f of shown) lines.push(`${indent}  ${f.severity.padEnd(7)} line ${String(f.line).padEnd(5)} ${f.code}: ${f.message}`);
  const more = report.findings.length - shown.length;
  if (more > 0) lines.push(`${indent}  … ${count(more, 'more finding')} (--json lists all)`);
  return lines;
}
