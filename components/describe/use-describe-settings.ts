import { useCallback, useEffect, useState } from 'react';
import { DESCRIBE_SETTINGS_KEY, normalizeDescribeSettings, type DescribeSettings } from '@/lib/describe/settings';

/** The description settings in storage.local (this device only), kept in step across panels. */
export function useDescribeSettings(): [DescribeSettings | null, (next: DescribeSettings) => Promise<void>] {
  const [settings, setSettings] = useState<DescribeSettings | null>(null);
  useEffect(() => {
    void browser.storage.local.get(DESCRIBE_SETTINGS_KEY).then((r) => setSettings(normalizeDescribeSettings(r[DESCRIBE_SETTINGS_KEY])));
    const onChange = (changes: Record<string, { newValue?: unknown }>, area: string) => {
      if (area === 'local' && changes[DESCRIBE_SETTINGS_KEY]) setSettings(normalizeDescribeSettings(changes[DESCRIBE_SETTINGS_KEY].newValue));
    };
    browser.storage.onChanged.addListener(onChange);
    return () => browser.storage.onChanged.removeListener(onChange);
  }, []);
  const save = useCallback(async (next: DescribeSettings) => {
    await browser.storage.local.set({ [DESCRIBE_SETTINGS_KEY]: normalizeDescribeSettings(next) });
  }, []);
  return [settings, save];
}
