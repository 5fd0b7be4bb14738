import { describe, expect, it } from 'vitest';
import { browserTabs, type ExtensionApis } from '@/lib/render/browser-tabs';

type TabState = { status?: string; url?: string; pendingUrl?: string };

/**
 * Tabs API whose tab drops the first `dropped` navigations (Chromium can leave a new tab blank
 * when it is navigated too early): the tab stays on about:blank, complete, nothing pending.
 */
function fakeApis(dropped: number) {
  const tab: TabState = { status: 'complete', url: 'about:blank' };
  const updates: string[] = [];
  const apis: ExtensionApis = {
    tabs: {
      create: async () => ({ id: 1 }),
      update: async (_id, { url }) => {
        updates.push(url);
        if (updates.length <= dropped) return;
        Object.assign(tab, { status: 'loading', pendingUrl: url });
        setTimeout(() => Object.assign(tab, { status: 'complete', url, pendingUrl: undefined }), 50);
      },
      remove: async () => undefined,
      get: async () => ({ ...tab }),
    },
    scripting: { executeScript: async () => [] },
  };
  return { apis, updates, tab };
}

describe('browserTabs.load', () => {
  it('loads the page when the tab follows the first navigation, asking once', async () => {
    const { apis, updates } = fakeApis(0);
    await browserTabs(apis).load(1, 'https://docs.example.test/a', new AbortController().signal);
    expect(updates).toEqual(['https://docs.example.test/a']);
  });

  it('asks again when the tab stays blank after the navigation was dropped, and then loads', async () => {
    const { apis, updates, tab } = fakeApis(1);
    await browserTabs(apis).load(1, 'https://docs.example.test/a', AbortSignal.timeout(8000));
    expect(updates).toEqual(['https://docs.example.test/a', 'https://docs.example.test/a']);
    expect(tab.url).toBe('https://docs.example.test/a');
  });

  it('does not navigate again while the page is loading, however long it takes', async () => {
    const { apis, updates, tab } = fakeApis(0);
    apis.tabs.update = async (_id, { url }) => {
      updates.push(url);
      // While loading, the tab may still show about:blank with no pending URL (one Scout may not see yet).
      Object.assign(tab, { status: 'loading', url: 'about:blank', pendingUrl: undefined });
      setTimeout(() => Object.assign(tab, { status: 'complete', url }), 2600);
    };
    await browserTabs(apis).load(1, 'https://docs.example.test/slow', AbortSignal.timeout(8000));
    expect(updates).toHaveLength(1);
  });
});
