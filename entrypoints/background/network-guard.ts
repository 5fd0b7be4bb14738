import { privateHostReason, hostnameOf } from '@/lib/url/private-network';
import { ALLOW_RULE_BASE, allowOriginRule, allowRule, BLOCK_RULE_IDS, privateNetworkRules } from '@/lib/url/private-network-rules';

type DnrRule = Browser.declarativeNetRequest.Rule;

/** The extension's own URL host: what Chromium reports as the initiator of Scout's requests. */
const selfHost = () => new URL(browser.runtime.getURL('/')).hostname;

let installed: Promise<void> | undefined;
/** An allow rule: its id, the jobs holding it, and the update that puts it in force. */
interface HeldRule {
  id: number;
  holders: number;
  ready: Promise<void>;
}
/** Allow rules in force or being added, by what they allow ("host:…" or "origin:…"). */
const held = new Map<string, HeldRule>();

/**
 * Installs the block rules (dynamic: they persist across restarts; written again on
 * every worker start so an update's new rules replace the old) and drops allow rules
 * left from an earlier worker, whose jobs re-take them as they resume.
 */
export function installNetworkGuard(): Promise<void> {
  installed ??= (async () => {
    const dnr = browser.declarativeNetRequest;
    if (!dnr) return; // A browser without DNR: the URL guard alone (redirect hops it cannot see go unchecked).
    await dnr.updateDynamicRules({ removeRuleIds: BLOCK_RULE_IDS, addRules: privateNetworkRules(selfHost()) as unknown as DnrRule[] });
    const stale = (await dnr.getSessionRules()).filter((r) => r.id >= ALLOW_RULE_BASE).map((r) => r.id);
    if (stale.length) await dnr.updateSessionRules({ removeRuleIds: stale });
  })().catch((error: unknown) => console.error('Scout could not install its network guard rules', error));
  return installed;
}

/** Takes (or shares) one allow rule while a job needs it; the returned function gives it back. */
async function hold(key: string, rule: (id: number) => unknown): Promise<() => Promise<void>> {
  const dnr = browser.declarativeNetRequest;
  let entry = held.get(key);
  if (entry) {
    entry.holders++;
  } else {
    const used = new Set([...held.values()].map((h) => h.id));
    let id = ALLOW_RULE_BASE;
    while (used.has(id)) id++;
    entry = { id, holders: 1, ready: dnr.updateSessionRules({ removeRuleIds: [id], addRules: [rule(id) as DnrRule] }) };
    held.set(key, entry);
  }
  const mine = entry;
  try {
    // A second job on the host shares the rule only once it is in force: its first request would be blocked before.
    await mine.ready;
  } catch (error) {
    // Not held after all: the next job on this host must add the rule, not share one never made.
    if (held.get(key) === mine) held.delete(key);
    throw error;
  }
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    if (--mine.holders > 0) return;
    if (held.get(key) === mine) held.delete(key);
    await dnr.updateSessionRules({ removeRuleIds: [mine.id] });
  };
}

const none = async () => undefined;

/**
 * A job that starts on a private host (the user's own intranet docs) may reach that
 * host (any port) while it runs, and no other private one. Public starts need nothing.
 */
export async function holdStartHost(startUrl: string | undefined): Promise<() => Promise<void>> {
  await installNetworkGuard();
  const host = startUrl ? hostnameOf(startUrl) : null;
  if (!browser.declarativeNetRequest || !host || privateHostReason(host) === null) return none;
  return hold(`host:${host}`, (id) => allowRule(id, host, selfHost()));
}

/** The user's LLM endpoint on their own machine or network (a local Ollama): that exact origin, while a job uses it. */
export async function holdEndpoint(url: string): Promise<() => Promise<void>> {
  await installNetworkGuard();
  const host = hostnameOf(url);
  if (!browser.declarativeNetRequest || !host || privateHostReason(host) === null) return none;
  const origin = new URL(url).origin;
  return hold(`origin:${origin}`, (id) => allowOriginRule(id, origin, selfHost()));
}
