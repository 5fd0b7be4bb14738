/**
 * The description settings in storage.local (this device only: the API key never syncs), read
 * and written in one place by the worker and the panel. The worker's generator needs them too
 * (which provider's cached descriptions to use); reading them through the describe wiring made
 * the background's generate and describe modules import each other.
 */
import { storage } from 'wxt/utils/storage';
import { DESCRIBE_SETTINGS_KEY, normalizeDescribeSettings, providerId, type DescribeSettings } from './settings';

const item = storage.defineItem<unknown>(`local:${DESCRIBE_SETTINGS_KEY}`);

export async function readDescribeSettings(): Promise<DescribeSettings> {
  return normalizeDescribeSettings(await item.getValue());
}

export async function saveDescribeSettings(next: DescribeSettings): Promise<void> {
  await item.setValue(normalizeDescribeSettings(next));
}

/** Calls back with the settings whenever any panel or the worker saves them. */
export function watchDescribeSettings(onChange: (settings: DescribeSettings) => void): () => void {
  return item.watch((value) => onChange(normalizeDescribeSettings(value)));
}

/** The provider whose cached descriptions the generator uses, or null for Scout's own. */
export async function descriptionsBy(): Promise<string | null> {
  // Settings that cannot be read must not stop the files being made: they fall back to Scout's own descriptions.
  return providerId(await readDescribeSettings().catch(() => normalizeDescribeSettings(undefined)));
}
