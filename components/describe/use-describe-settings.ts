import { useEffect, useState } from 'react';
import type { DescribeSettings } from '@/lib/describe/settings';
import { readDescribeSettings, saveDescribeSettings, watchDescribeSettings } from '@/lib/describe/settings-item';

/** The description settings (this device only), kept in step across panels and the worker. */
export function useDescribeSettings(): [DescribeSettings | null, (next: DescribeSettings) => Promise<void>] {
  const [settings, setSettings] = useState<DescribeSettings | null>(null);
  useEffect(() => {
    void readDescribeSettings().then(setSettings);
    return watchDescribeSettings(setSettings);
  }, []);
  return [settings, saveDescribeSettings];
}
