import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { classifyTarget, watchActiveTab, type PanelTarget } from '@/lib/tabs/target';

describe('classifyTarget', () => {
  it('accepts http and https pages', () => {
    expect(classifyTarget('https://docs.example.com/a')).toEqual({ kind: 'site', url: 'https://docs.example.com/a' });
    expect(classifyTarget('http://localhost:3000/')).toMatchObject({ kind: 'site' });
  });
  it.each([
    ['chrome://settings', /browser page/],
    ['about:blank', /empty tab/],
    ['file:///home/me/doc.html', /local file/],
    ['chrome-extension://abc/page.html', /browser page/],
    ['https://chromewebstore.google.com/detail/x', /add-on stores/],
    ['not a url', /not a valid web address/],
  ])('explains why %s cannot be inspected', (url, reason) => {
    const t = classifyTarget(url);
    expect(t.kind).toBe('unsupported');
    expect(t.kind === 'unsupported' && t.reason).toMatch(reason);
  });
  it('says what to do when the address is hidden from the extension', () => {
    const t = classifyTarget(undefined);
    expect(t).toMatchObject({ kind: 'unknown' });
    expect(t.kind === 'unknown' && t.reason).toMatch(/click the Scout button/);
  });
});

describe('watchActiveTab', () => {
  beforeEach(() => fakeBrowser.reset());

  const settle = () => new Promise((r) => setTimeout(r, 10));

  it('follows tab switches and navigations, and ignores its own tab', async () => {
    await fakeBrowser.windows.create({ focused: true });
    const a = await fakeBrowser.tabs.create({ url: 'https://docs.example.com/', active: true });
    const seen: PanelTarget[] = [];
    const stop = watchActiveTab(fakeBrowser.tabs, (t) => seen.push(t), 9999);
    await settle();
    expect(seen.at(-1)).toEqual({ kind: 'site', url: 'https://docs.example.com/' });

    const b = await fakeBrowser.tabs.create({ url: 'chrome://settings', active: true });
    await fakeBrowser.tabs.onActivated.trigger({ tabId: b.id ?? -1, windowId: b.windowId ?? 0 });
    await settle();
    expect(seen.at(-1)).toMatchObject({ kind: 'unsupported', url: 'chrome://settings' });

    await fakeBrowser.tabs.update(b.id, { url: 'https://other.example.org/page' });
    await settle();
    expect(seen.at(-1)).toEqual({ kind: 'site', url: 'https://other.example.org/page' });
    expect(a.id).not.toBe(b.id);

    stop();
    await fakeBrowser.tabs.update(b.id, { url: 'https://third.example.net/' });
    await settle();
    expect(seen.at(-1)).toEqual({ kind: 'site', url: 'https://other.example.org/page' });
  });
});
