import { useCallback, useEffect, useState } from 'react';

export type HostAccess = 'checking' | 'granted' | 'missing';

/**
 * Whether the extension may fetch from the site's hosts. Without it the
 * worker's fetch fails ("Failed to fetch") on any server that sends no CORS
 * headers, which is nearly all of them. `request` must run inside a click
 * handler: browsers only show the permission prompt for a user gesture.
 */
export function useHostAccess(patterns: string[] | null): { access: HostAccess; request: () => Promise<boolean> } {
  const [access, setAccess] = useState<HostAccess>('checking');
  const key = patterns?.join(' ') ?? '';

  useEffect(() => {
    if (!patterns) return;
    let live = true;
    const check = () =>
      void browser.permissions.contains({ origins: patterns }).then((ok) => live && setAccess(ok ? 'granted' : 'missing'));
    check();
    browser.permissions.onAdded.addListener(check);
    browser.permissions.onRemoved.addListener(check);
    return () => {
      live = false;
      browser.permissions.onAdded.removeListener(check);
      browser.permissions.onRemoved.removeListener(check);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for the array's contents
  }, [key]);

  const request = useCallback(async () => {
    if (!patterns) return false;
    const ok = await browser.permissions.request({ origins: patterns });
    setAccess(ok ? 'granted' : 'missing');
    return ok;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  return { access, request };
}
