/**
 * The private-network guard: Scout fetches with the user's browser, from the user's
 * network position, so a public page that links to `http://192.168.1.1/…` or redirects
 * to `http://localhost:8080/…` must not make it request the user's router, printer or
 * dev servers (a CSRF / intranet-scan vector). The guard judges the host as written in
 * the URL: it cannot see DNS, so a public name that resolves to a private address is
 * not caught here (Chrome's Private Network Access covers part of that in the browser; in
 * Node, the command line's resolvingFetch in cli/fetch.ts judges the resolved address).
 */

/** IPv4 ranges as [first octets, prefix length, words]. */
const V4_RANGES: Array<[number[], number, string]> = [
  [[0], 8, 'An unspecified address'],
  [[127], 8, 'A loopback address (this computer)'],
  [[10], 8, 'A private network address'],
  [[172, 16], 12, 'A private network address'],
  [[192, 168], 16, 'A private network address'],
  [[169, 254], 16, 'A link-local address'],
  // Carrier-grade NAT (RFC 6598). Not "private" in RFC 1918's sense, but never a public web
  // site: it is the ISP's side of the user's connection, and Tailscale gives every device
  // on a tailnet a 100.64/10 address — the user's own machines. Refused for that reason.
  [[100, 64], 10, 'A carrier-grade NAT or VPN address'],
];

/** Names that only mean something inside a home or company network (RFC 6762, 8375, ICANN 2024 .internal). */
const PRIVATE_SUFFIXES = ['.local', '.internal', '.lan', '.home.arpa', '.localdomain'];

const NEVER = 'Scout never fetches these from a public site';

/**
 * Why a host is on the user's own machine or network, in plain words, or null when it
 * looks public. Accepts a URL's `hostname` (IPv6 with or without brackets); other
 * spellings of an address (`0x7f.1`, `2130706433`, `::ffff:127.0.0.1`) are canonicalized
 * the way the URL parser does first, so they cannot slip through.
 *
 * `.test` (and other reserved TLDs besides the ones above) count as public: the guard
 * judges names, and Scout's own tests map `*.test` to loopback by resolver rules.
 */
export function privateHostReason(host: string): string | null {
  const name = canonicalHost(host);
  if (name === null) return null;
  const shown = (words: string) => `${words} (${name.includes(':') ? `[${name}]` : name}): ${NEVER}`;
  if (/^\d+\.\d+\.\d+\.\d+$/.test(name)) {
    const words = v4Reason(name);
    return words ? shown(words) : null;
  }
  if (name.includes(':')) {
    const words = v6Reason(name);
    return words ? shown(words) : null;
  }
  if (name === 'localhost' || name.endsWith('.localhost')) return shown('This computer');
  if (!name.includes('.')) return shown('A local network name');
  if (PRIVATE_SUFFIXES.some((s) => name.endsWith(s))) return shown('A local network name');
  return null;
}

/**
 * The guard for one crawl or discovery started at `startUrl`: given a URL, null to go
 * ahead, else why it is refused. From a public start, every private target is refused.
 * When the user starts on a private host themselves (their intranet docs, a local dev
 * server), that very host is allowed (any port: it is one machine) — but no other
 * private host: the guard cannot tell a sibling intranet server from the router, and a
 * page on the user's network deserves no more trust than one on the internet.
 */
export function createNetworkGuard(startUrl: string): (url: string | URL) => string | null {
  const start = hostnameOf(startUrl);
  const startHost = start === null ? null : canonicalHost(start);
  // A page's links share a few hosts: each host is judged once (a page with 100,000 links
  // parsed every host name twice more than the link itself).
  const verdicts = new Map<string, string | null>();
  return (url) => {
    const hostname = hostnameOf(url);
    if (hostname === null) return null; // not a web URL: other checks name that
    let verdict = verdicts.get(hostname);
    if (verdict === undefined) {
      const reason = privateHostReason(hostname);
      verdict = reason !== null && startHost !== null && privateHostReason(startHost) !== null && canonicalHost(hostname) === startHost ? null : reason;
      if (verdicts.size < 1000) verdicts.set(hostname, verdict);
    }
    return verdict;
  };
}

/** The hostname of an http(s) URL (IPv6 in brackets, as URL gives it), or null. */
export function hostnameOf(url: string | URL): string | null {
  try {
    const u = typeof url === 'string' ? new URL(url) : url;
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.hostname : null;
  } catch {
    return null;
  }
}

/** Lower-case, no trailing dot, no brackets, addresses in the URL parser's canonical form. */
function canonicalHost(host: string): string | null {
  const bare = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  if (bare === '') return null;
  try {
    const parsed = new URL(`http://${bare.includes(':') ? `[${bare}]` : bare}/`).hostname;
    return parsed.replace(/^\[(.*)\]$/, '$1');
  } catch {
    return null;
  }
}

function v4Reason(address: string): string | null {
  const octets = address.split('.').map(Number);
  const value = octets.reduce((n, o) => n * 256 + o, 0);
  for (const [start, bits, words] of V4_RANGES) {
    const base = [...start, 0, 0, 0, 0].slice(0, 4).reduce((n, o) => n * 256 + o, 0);
    const size = 2 ** (32 - bits);
    if (value >= base && value < base + size) return words;
  }
  return null;
}

function v6Reason(address: string): string | null {
  const words = expandV6(address);
  if (words === null) return null;
  if (words.every((w) => w === 0)) return 'An unspecified address';
  if (words.slice(0, 7).every((w) => w === 0) && words[7] === 1) return 'A loopback address (this computer)';
  const first = words[0] ?? 0;
  if ((first & 0xfe00) === 0xfc00) return 'A private network address';
  if ((first & 0xffc0) === 0xfe80) return 'A link-local address';
  if ((first & 0xffc0) === 0xfec0) return 'A site-local address';
  // IPv4-mapped (::ffff:a.b.c.d) reaches the IPv4 address itself on dual-stack sockets;
  // NAT64 (64:ff9b::a.b.c.d) reaches it through the user's NAT64 gateway.
  const mapped = words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff;
  const nat64 = first === 0x64 && words[1] === 0xff9b && words.slice(2, 6).every((w) => w === 0);
  if (mapped || nat64) {
    const hi = words[6] ?? 0;
    const lo = words[7] ?? 0;
    return v4Reason(`${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`);
  }
  return null;
}

/** Eight 16-bit words; the URL parser has already turned any dotted tail into hex. */
function expandV6(address: string): number[] | null {
  const [head = '', tail] = address.split('::');
  const part = (s: string) => (s === '' ? [] : s.split(':').map((h) => parseInt(h, 16)));
  const a = part(head);
  const b = tail === undefined ? [] : part(tail);
  const fill = 8 - a.length - b.length;
  if (fill < 0 || (tail === undefined && fill !== 0)) return null;
  const words = [...a, ...Array<number>(fill).fill(0), ...b];
  return words.some((w) => Number.isNaN(w)) ? null : words;
}
