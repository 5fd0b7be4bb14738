/**
 * The private-network guard again, as declarativeNetRequest rules: the browser's own
 * network stack refuses Scout's requests to the user's machine and network.
 *
 * Why both: the guard in private-network.ts judges every URL before Scout requests it,
 * but a browser follows redirects without showing the hops to the extension, so a public
 * page that answers `302 Location: http://192.168.1.1/…` would get the router requested
 * before any code of ours could look. Block rules run inside that redirect. Each rule is
 * limited to requests Scout itself makes (`initiatorDomains`: the extension's own host),
 * so the user's browsing is never touched. When the user starts on their own intranet
 * host, one allow rule (higher priority) lets Scout's requests reach exactly that host.
 *
 * Rules see the host as written in the URL (after the URL parser's canonicalization:
 * `0x7f.1` arrives as 127.0.0.1), not DNS answers — the same limit as the guard.
 */

export type Rule = {
  id: number;
  priority: number;
  action: { type: 'block' | 'allow' };
  condition: { requestDomains?: string[]; regexFilter?: string; initiatorDomains: string[] };
};

const SCHEME = '^(https?|wss?)://([^/?#@]*@)?';
const PORT_END = '(:[0-9]+)?([/?#]|$)';
/** Names only meaningful inside a home or company network; requestDomains also matches their subdomains. */
const PRIVATE_NAMES = ['localhost', 'local', 'internal', 'lan', 'home.arpa', 'localdomain'];

/** Rule ids 1–9 are the block rules; allow rules for intranet starts use 100 and up. */
export const BLOCK_RULE_IDS = [1, 2, 3, 4, 5];
export const ALLOW_RULE_BASE = 100;

/** The block rules, for requests whose initiator is `selfHost` (the extension's URL host). */
export function privateNetworkRules(selfHost: string): Rule[] {
  const block = (id: number, condition: Omit<Rule['condition'], 'initiatorDomains'>): Rule => ({ id, priority: 1, action: { type: 'block' }, condition: { ...condition, initiatorDomains: [selfHost] } });
  return [
    block(1, { requestDomains: PRIVATE_NAMES }),
    // IPv4: 0/8, 10/8, 127/8, 169.254/16, 172.16/12, 192.168/16, 100.64/10 (CGNAT, tailnets).
    block(2, { regexFilter: `${SCHEME}(0|10|127|169\\.254|172\\.(1[6-9]|2[0-9]|3[01])|192\\.168|100\\.(6[4-9]|[7-9][0-9]|1[01][0-9]|12[0-7]))(\\.[0-9]+)+${PORT_END}` }),
    // IPv6: ::, ::1 and every ::ffff: mapped address, fc00::/7, fe80::/10 and fec0::/10, NAT64.
    block(3, { regexFilter: `${SCHEME}\\[(::|f[cd][0-9a-f]{2}:|fe[89a-f][0-9a-f]:|64:ff9b:)` }),
    // Single-label names (router, intranet), with or without a trailing dot.
    block(4, { regexFilter: `${SCHEME}[^/?#@:.\\[\\]]+\\.?${PORT_END}` }),
    // The private names with a trailing dot, which requestDomains does not match.
    block(5, { regexFilter: `${SCHEME}([^/?#@:]*\\.)?(localhost|local|internal|lan|home\\.arpa|localdomain)\\.${PORT_END}` }),
  ];
}

/** Lets Scout's own requests reach one private host the user started on (`host` as URL.hostname gives it). */
export function allowRule(id: number, host: string, selfHost: string): Rule {
  return { id, priority: 2, action: { type: 'allow' }, condition: { requestDomains: [host.replace(/^\[(.*)\]$/, '$1')], initiatorDomains: [selfHost] } };
}

/**
 * Lets Scout's own requests reach exactly one origin (scheme, host and port) on the user's
 * machine or network: the LLM endpoint the user configured, such as a local Ollama server.
 */
export function allowOriginRule(id: number, origin: string, selfHost: string): Rule {
  const escaped = new URL(origin).origin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return { id, priority: 2, action: { type: 'allow' }, condition: { regexFilter: `^${escaped}/`, initiatorDomains: [selfHost] } };
}
