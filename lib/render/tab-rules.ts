/**
 * declarativeNetRequest session rules for one render tab. Scout's own requests are guarded by
 * rules limited to the extension as initiator (lib/url/private-network-rules.ts); a render tab's
 * requests are the page's, so the same block rules are repeated for that tab alone (`tabIds`):
 * the page Scout opened cannot reach the user's machine or network, through a redirect, a script
 * or a subresource. One more rule stops the tab's top-level navigation leaving the crawl's site,
 * so a page whose script navigates elsewhere is not followed there. The rules go when the tab does.
 */
import { privateNetworkRules } from '../url/private-network-rules';

/** A declarativeNetRequest rule as the browser takes it (the fields these rules use). */
export interface TabRule {
  id: number;
  priority: number;
  action: { type: 'block' };
  condition: {
    tabIds: number[];
    requestDomains?: string[];
    excludedRequestDomains?: string[];
    regexFilter?: string;
    resourceTypes?: Array<'main_frame'>;
  };
}

/** Session rule ids 1000 and up are render-tab rules, RULES_PER_TAB per render slot. */
export const TAB_RULE_BASE = 1000;
export const RULES_PER_TAB = 10;
/** Rule ids past this are never render-tab rules (a generous bound for sweeping). */
export const TAB_RULE_END = TAB_RULE_BASE + 100 * RULES_PER_TAB;

/** The rule ids a render slot uses. */
export function slotRuleIds(slot: number): number[] {
  return Array.from({ length: RULES_PER_TAB }, (_, i) => TAB_RULE_BASE + slot * RULES_PER_TAB + i);
}

/**
 * The rules for the tab of render slot `slot`. `site` is the crawl's registrable domain (its
 * subdomains are matched too); `allowHost` is a private host the user started the crawl on
 * (their intranet docs), which the tab may reach like Scout's own requests may.
 */
export function tabRules(slot: number, tabId: number, site: string, allowHost?: string): TabRule[] {
  const ids = slotRuleIds(slot);
  const except = allowHost ? { excludedRequestDomains: [allowHost.replace(/^\[(.*)\]$/, '$1')] } : {};
  const guard: TabRule[] = privateNetworkRules('unused').map((rule, i) => {
    const { initiatorDomains: _initiator, ...condition } = rule.condition;
    return { id: ids[i] ?? 0, priority: 1, action: { type: 'block' }, condition: { ...condition, ...except, tabIds: [tabId] } };
  });
  const offSite: TabRule = {
    id: ids[guard.length] ?? 0,
    priority: 1,
    action: { type: 'block' },
    condition: { tabIds: [tabId], resourceTypes: ['main_frame'], excludedRequestDomains: [site] },
  };
  return [...guard, offSite];
}
