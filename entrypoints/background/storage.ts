import type { WxtBrowser } from 'wxt/browser';
import type { ScoutDb } from '@/lib/store/db';
import { deleteSiteData, pruneCrawls } from '@/lib/store/retention';
import { normalizeKeep } from '@/lib/store/keep';
import { limitPageRoom } from '@/lib/store/page-room';
import { onCommand } from './on-command';

/** Sites whose data is being deleted now: a second press joins the first deletion instead of racing it. */
const deleting = new Map<string, Promise<unknown>>();

/** One deletion per site at a time; the second caller waits for the first, then runs its own. */
function serial<T>(origin: string, work: () => Promise<T>): Promise<T> {
  const before = deleting.get(origin) ?? Promise.resolve();
  const next = before.then(work, work);
  const settled = next.then(() => undefined, () => undefined);
  deleting.set(origin, settled);
  void settled.then(() => {
    if (deleting.get(origin) === settled) deleting.delete(origin);
  });
  return next;
}

/** Settles when no deletion is running (for tests, before their database goes). */
export async function deletionsSettled(): Promise<void> {
  while (deleting.size > 0) await Promise.all(deleting.values());
}

/** Deletes the site's crawls past the `keep` newest (and never one in use), logging a failure instead of throwing. */
export function pruneOldCrawls(db: ScoutDb, origin: string, keep: number | undefined): Promise<void> {
  return serial(origin, () => pruneCrawls(db, origin, normalizeKeep(keep)))
    .then(() => undefined)
    .catch((error: unknown) => console.error('Scout could not delete old crawls', error));
}

/**
 * The panel's storage commands. Each awaits its deletion (batches of bounded size, so it takes
 * seconds, well inside the message's lifetime) and answers what it deleted in numbers.
 */
export function setUpStorage({ db }: { db: ScoutDb }): void {
  onCommand('deleteOldCrawls', ({ origin }) => {
    // As few as the rule allows: the newest ended crawl, and the crawls in use (a paused one, the one the outputs come from).
    return serial(origin, () => pruneCrawls(db, origin, 1));
  });
  onCommand('deleteSiteData', ({ origin }) => serial(origin, () => deleteSiteData(db, origin)));
}

/**
 * E2E builds only: a page store that holds at most `storage.local.e2eStorageRoom` pages (all sites
 * together), refusing a write past it with QuotaExceededError as a full disk does, so the
 * storage-full pause and its way out can be tested in the real extension. Must be installed
 * before the database opens (Dexie builds its middleware stack on open).
 */
export function limitPageStorageForTests(db: ScoutDb, browser: Pick<WxtBrowser, 'storage'>): void {
  // Read here, not in the write: awaiting anything but IndexedDB inside a transaction ends it.
  let room: number | undefined;
  const read = (value: unknown) => void (room = typeof value === 'number' ? value : undefined);
  void browser.storage.local.get('e2eStorageRoom').then((items) => read(items.e2eStorageRoom));
  browser.storage.onChanged.addListener((changes, area) => {
    if (area === 'local' && 'e2eStorageRoom' in changes) read(changes.e2eStorageRoom?.newValue);
  });
  limitPageRoom(db, () => room);
}
