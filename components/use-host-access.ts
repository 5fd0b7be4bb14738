import { useCallback, useEffect, useMemo, useState } from 'react';

export type HostAccess = 'checking' | 'granted' | 'missing';

/** What a click on "Allow access" came to: granted, declined by the user, or refused by the browser (with its reason). */
export type GrantResult = { granted: true } | { granted: false; error?: string };

/**
 * Whether the extension may fetch from the site's hosts. Without it the
 * worker's fetch fails ("Failed to fetch") on any server that sends no CORS
 * headers, which is nearly all of them. `request` must run inside a click
 * handler: browsers only show the permission prompt for a user gesture.
 */
export function useHostAccess(patterns: string[] | null): { access: HostAccess; request: () => Promise<GrantResult> } {
  const [access, setAccess] = useState<HostAccess>('checking');
  // A new array with the same patterns on every render must not re-run the check: its contents are the identity.
  const key = patterns?.join(' ') ?? null;
  const wanted = useMemo(() => (key === null ? null : key.split(' ').filter(Boolean)), [key]);

  useEffect(() => {
    if (!wanted) return;
    let live = true;
    // A browser that rejects the patterns (Firefox: not covered by the manifest) means no access, not a crash.
    const check = () =>
      void browser.permissions.contains({ origins: wanted }).then(
        (ok) => live && setAccess(ok ? 'granted' : 'missing'),
        () => live && setAccess('missing'),
      );
    check();
    browser.permissions.onAdded.addListener(check);
    browser.permissions.onRemoved.addListener(check);
    return () => {
      live = false;
      browser.permissions.onAdded.removeListener(check);
      browser.permissions.onRemoved.removeListener(check);
    };
  }, [wanted]);

  const request = useCallback(async (): Promise<GrantResult> => {
    if (!wanted) return { granted: false };
    try {
      const ok = await browser.permissions.request({ origins: wanted });
      setAccess(ok ? 'granted' : 'missing');
      return ok ? { granted: true } : { granted: false };
    } catch (error) {
      // The browser refused before asking the user (a pattern the manifest doesn't cover, no user
      // gesture…): the caller shows its reason next to the button instead of an unhandled rejection.
      setAccess('missing');
      return { granted: false, error: error instanceof Error ? error.message : String(error) };
    }
  }, [wanted]);

  return { access, request };
}
