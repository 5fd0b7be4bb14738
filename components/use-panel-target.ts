import { useEffect, useState } from 'react';
import { classifyTarget, watchActiveTab, type PanelTarget } from '@/lib/tabs/target';

/**
 * The page the panel is about. `sidepanel.html?url=…` pins it (the roomy
 * "open in tab" view, and how E2E tests drive the UI); otherwise it follows the
 * active tab of the window the side panel belongs to.
 */
export function usePanelTarget(): PanelTarget | null {
  const pinned = new URLSearchParams(location.search).get('url');
  const [target, setTarget] = useState<PanelTarget | null>(pinned === null ? null : classifyTarget(pinned));

  useEffect(() => {
    if (pinned !== null) return;
    let unsubscribe: (() => void) | undefined;
    let cancelled = false;
    void browser.tabs.getCurrent().then((own) => {
      if (!cancelled) unsubscribe = watchActiveTab(browser.tabs, setTarget, own?.id);
    });
    return () => {
      cancelled = true;
      unsubscribe?.();
    };
  }, [pinned]);

  return target;
}

/** True when this page runs as a full tab rather than inside the side panel. */
export function isPinnedView(): boolean {
  return new URLSearchParams(location.search).has('url');
}
