import { privateNetworkRules, type Rule } from '@/lib/url/private-network-rules';

/**
 * Whether the block rules would refuse `url`, evaluated in JavaScript the way Chromium
 * evaluates them (requestDomains: the host or a subdomain; regexFilter: on the URL): the tests'
 * check that the rules cover everything the guard refuses.
 */
export function blockedByRules(url: string, rules: Rule[] = privateNetworkRules('self')): boolean {
  const href = new URL(url).href;
  const host = new URL(url).hostname;
  return rules.some((r) => r.action.type === 'block' && (r.condition.requestDomains?.some((d) => host === d || host.endsWith(`.${d}`)) || (r.condition.regexFilter !== undefined && new RegExp(r.condition.regexFilter, 'i').test(href))));
}
