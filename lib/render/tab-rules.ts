/**
 * declarativeNetRequest session rules for one render tab. Scout's own requests are guarded by
 * rules limited to the extension as initiator (lib/url/private-network-rules.ts); a render tab's
 * requests are the page's, so the same block rules are repeated for that tab alone (`tabIds`):
 * the page Scout opened cannot reach the user's machine or network, through a redirect, a script
 * or a subresource. One more rule stops the tab's top-level navigation leaving the crawl's site,
 * so a page whose script navigates elsewhere is not followed there. The rules go when the tab does.
 *
 * Workers are not the tab's: requests of a SharedWorker or ServiceWorker the page starts carry no
 * tab id (tabs.TAB_ID_NONE), so `tabIds: [tabId]` misses them, and a rendered page could reach
 * loopback or a private address from one (Chromium's Local Network Access stops that from
 * public sites, not from the user's intranet docs). The guard is repeated for requests from no
 * tab whose initiator is the crawled site: while a page of the site renders, the site's workers
 * cannot reach the user's network either — in the user's own tabs of that site too, for as long
 * as the render lasts. A worker of a third-party frame on the page (another initiator) is not
 * covered: blocking every tabless request would break the user's own intranet apps' workers.
 */
import { privateNetworkRules } from '../url/private-network-rules';

/** A declarativeNetRequest rule as the browser takes it (the fields these rules use). */
export interface TabRule {
  id: number;
  priority: number;
  action: { type: 'block' };
  condition: {
    tabIds: number[];
    initiatorDomains?: string[];
    requestDomains?: string[];
    excludedRequestDomains?: string[];
    regexFilter?: string;
    resourceTypes?: Array<'main_frame'>;
  };
}

/** tabs.TAB_ID_NONE: what the browser gives requests that come from no tab (workers, the extension). */
export const TAB_ID_NONE = -1;

/** Session rule ids 1000 and up are render-tab rules, RULES_PER_TAB per render slot (11 used). */
export const TAB_RULE_BASE = 1000;
export const RULES_PER_TAB = 12;
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
  const conditions = privateNetworkRules('unused').map((rule) => {
    const { initiatorDomains: _initiator, ...condition } = rule.condition;
    return { ...condition, ...except };
  });
  const guard: TabRule[] = conditions.map((condition, i) => ({ id: ids[i] ?? 0, priority: 1, action: { type: 'block' }, condition: { ...condition, tabIds: [tabId] } }));
  const offSite: TabRule = {
    id: ids[guard.length] ?? 0,
    priority: 1,
    action: { type: 'block' },
    condition: { tabIds: [tabId], resourceTypes: ['main_frame'], excludedRequestDomains: [site] },
  };
  const workers: TabRule[] = conditions.map((condition, i) => ({
    id: ids[guard.length + 1 + i] ?? 0,
    priority: 1,
    action: { type: 'block' },
    condition: { ...condition, tabIds: [TAB_ID_NONE], initiatorDomains: [site] },
  }));
  return [...guard, offSite, ...workers];
}
