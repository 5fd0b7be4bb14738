import { afterEach, describe, expect, it } from 'vitest';
import { createDb, type ScoutDb } from '@/lib/store/db';
import type { RenderBrowser } from '@/lib/render/browser-tabs';
import { createTabRenderer } from '@/lib/render/tab-renderer';
import { slotRuleIds, TAB_ID_NONE, tabRules } from '@/lib/render/tab-rules';
import { TabStore } from '@/lib/render/tab-store';
import { blockedByRules } from './rule-match';

let db: ScoutDb;
afterEach(() => db?.delete());

/** A browser whose tabs load in `loadMs` (or never, for `hang`), recording what happened. */
function fakeBrowser(options: { loadMs?: number; hang?: (url: string) => boolean } = {}) {
  let next = 100;
  const open = new Set<number>();
  const rules = new Map<number, unknown>();
  const log = { maxOpen: 0, opened: 0, closed: [] as number[] };
  const browser: RenderBrowser = {
    async openTab() {
      const id = next++;
      open.add(id);
      log.opened++;
      log.maxOpen = Math.max(log.maxOpen, open.size);
      return id;
    },
    async closeTab(id) {
      if (open.delete(id)) log.closed.push(id);
    },
    load(_id, url, signal) {
      return new Promise((resolve, reject) => {
        signal.addEventListener('abort', () => reject(new Error('Cancelled')));
        if (!options.hang?.(url)) setTimeout(resolve, options.loadMs ?? 20);
      });
    },
    async read(_id) {
      return { html: '<html><body><p>rendered</p></body></html>', url: 'https://a.test/x', links: [], settled: true, textChars: 8 };
    },
    async setRules(add, remove) {
      for (const id of remove) rules.delete(id);
      for (const r of add) rules.set(r.id, r);
      return true;
    },
  };
  return { browser, open, rules, log };
}

const request = (url: string, signal?: AbortSignal) => ({ url, jobId: 'j1', site: 'a.test', signal });

describe('the tab renderer', () => {
  it('renders at most two pages at once, and leaves no tab, no row and no rule behind', async () => {
    db = createDb(`t-${Math.random()}`);
    const fake = fakeBrowser();
    const renderer = createTabRenderer({ browser: fake.browser, store: new TabStore(db, Promise.resolve('s1')) });
    const results = await Promise.all(Array.from({ length: 7 }, (_, i) => renderer.render(request(`https://a.test/p${i}`))));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(fake.log).toMatchObject({ maxOpen: 2, opened: 7 });
    expect(fake.open.size).toBe(0);
    expect(await db.renderTabs.count()).toBe(0);
    expect(fake.rules.size).toBe(0);
  });

  it('gives up on a page at its deadline with a clear reason, and closes its tab', async () => {
    db = createDb(`t-${Math.random()}`);
    const fake = fakeBrowser({ hang: (url) => url.endsWith('/slow') });
    const renderer = createTabRenderer({ browser: fake.browser, store: new TabStore(db, Promise.resolve('s1')), timeoutMs: 150 });
    const [slow, fast] = await Promise.all([renderer.render(request('https://a.test/slow')), renderer.render(request('https://a.test/fast'))]);
    expect(slow).toEqual({ ok: false, reason: 'Not rendered within 0 s: the page did not finish loading in its tab' });
    expect(fast.ok).toBe(true);
    expect(fake.open.size).toBe(0);
    expect(await db.renderTabs.count()).toBe(0);
  });

  it('closes the tab at once when the crawl is cancelled, and frees its slot for waiting pages', async () => {
    db = createDb(`t-${Math.random()}`);
    const fake = fakeBrowser({ hang: () => true });
    const renderer = createTabRenderer({ browser: fake.browser, store: new TabStore(db, Promise.resolve('s1')), tabs: 1 });
    const cancel = new AbortController();
    const first = renderer.render(request('https://a.test/1', cancel.signal));
    const queued = renderer.render(request('https://a.test/2', cancel.signal));
    await new Promise((r) => setTimeout(r, 50));
    expect(fake.open.size).toBe(1);
    expect(await db.renderTabs.count()).toBe(1);
    cancel.abort();
    expect(await first).toEqual({ ok: false, reason: 'Cancelled' });
    expect(await queued).toEqual({ ok: false, reason: 'Cancelled' });
    expect(fake.open.size).toBe(0);
    expect(fake.log.opened).toBe(1);
    expect(await db.renderTabs.count()).toBe(0);
  });

  it('closes tabs an earlier worker left open in this browser session, and only forgets older sessions’ ids', async () => {
    db = createDb(`t-${Math.random()}`);
    const fake = fakeBrowser();
    fake.open.add(7).add(8);
    await db.renderTabs.bulkPut([
      { tabId: 7, jobId: 'j1', url: 'https://a.test/x', openedAt: 1, session: 's1' },
      // Id 8 was a render tab in the browser's previous run; now it may be one of the user's tabs.
      { tabId: 8, jobId: 'j0', url: 'https://a.test/y', openedAt: 1, session: 's0' },
    ]);
    const renderer = createTabRenderer({ browser: fake.browser, store: new TabStore(db, Promise.resolve('s1')) });
    await renderer.ready;
    expect(fake.log.closed).toEqual([7]);
    expect([...fake.open]).toEqual([8]);
    expect(await db.renderTabs.count()).toBe(0);
  });
});

describe('render-tab rules', () => {
  it('apply the private-network guard to the tab alone, and keep its top frame on the site', () => {
    const rules = tabRules(1, 42, 'example.test');
    expect(rules.map((r) => r.id)).toEqual(slotRuleIds(1).slice(0, rules.length));
    expect(rules.length).toBeLessThanOrEqual(slotRuleIds(1).length);
    const [tab, workers] = [rules.filter((r) => r.condition.tabIds[0] === 42), rules.filter((r) => r.condition.tabIds[0] === TAB_ID_NONE)];
    expect(tab.length + workers.length).toBe(rules.length);
    for (const set of [tab, workers]) {
      const asScout = set.map((r) => ({ ...r, action: { type: 'block' as const }, condition: { ...r.condition, initiatorDomains: [] } }));
      for (const url of ['http://192.168.1.1/', 'http://localhost:8080/', 'http://[::1]/', 'http://router/', 'http://printer.local/', 'http://169.254.169.254/']) expect(blockedByRules(url, asScout)).toBe(true);
      expect(blockedByRules('https://docs.example.test/a', asScout)).toBe(false);
    }
    expect(tab.at(-1)?.condition).toEqual({ tabIds: [42], resourceTypes: ['main_frame'], excludedRequestDomains: ['example.test'] });
    // The page's SharedWorkers and ServiceWorkers come from no tab: the same guard, for the crawled site's workers only.
    expect(workers.every((r) => r.condition.tabIds.length === 1 && JSON.stringify(r.condition.initiatorDomains) === '["example.test"]')).toBe(true);
    // Started on the user's own intranet host: the tab may reach that host.
    for (const rule of tabRules(0, 42, 'wiki.corp.local', 'wiki.corp.local').filter((r) => !r.condition.resourceTypes)) expect(rule.condition.excludedRequestDomains).toEqual(['wiki.corp.local']);
  });
});
