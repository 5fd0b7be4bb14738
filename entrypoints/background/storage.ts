import type { WxtBrowser } from 'wxt/browser';
import type { JobRegistry } from '@/lib/jobs/registry';
import type { ScoutDb } from '@/lib/store/db';
import { deleteSiteData, pruneCrawls } from '@/lib/store/retention';
import { normalizeKeep } from '@/lib/store/keep';
import { limitPageRoom } from '@/lib/store/page-room';
import { wiring, type JobWiring } from './jobs';
import { onCommand } from './on-command';

/**
 * Deletions of a site's data queue on the worker's job registry, one at a time per site: a second
 * press waits for the first deletion, then runs its own, instead of racing it; the worker is kept
 * up until the last one ends.
 */
function deletion<T>(jobs: JobRegistry, origin: string, run: () => Promise<T>): Promise<T> {
  return jobs.queue({ id: crypto.randomUUID(), kind: 'delete', key: `delete:${origin}`, run });
}

/** Deletes the site's crawls past the `keep` newest (and never one in use), logging a failure instead of throwing. */
export function pruneOldCrawls(jobs: JobRegistry, db: ScoutDb, origin: string, keep: number | undefined): Promise<void> {
  return deletion(jobs, origin, () => pruneCrawls(db, origin, normalizeKeep(keep)))
    .then(() => undefined)
    .catch((error: unknown) => console.error('Scout could not delete old crawls', error));
}

/**
 * The panel's storage commands. Each awaits its deletion (batches of bounded size, so it takes
 * seconds, well inside the message's lifetime) and answers what it deleted in numbers.
 */
export function setUpStorage(given: Partial<JobWiring> = {}): void {
  const { db, jobs } = wiring(given);
  onCommand('deleteOldCrawls', ({ origin }) => {
    // As few as the rule allows: the newest ended crawl, and the crawls in use (a paused one, the one the outputs come from).
    return deletion(jobs, origin, () => pruneCrawls(db, origin, 1));
  });
  onCommand('deleteSiteData', ({ origin }) => deletion(jobs, origin, () => deleteSiteData(db, origin)));
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
