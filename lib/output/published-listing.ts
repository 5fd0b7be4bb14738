import type { Store } from '../store/store';
import { parseLlmsTxt } from '../discovery/parse-llms-txt';
import { bestFinding } from '../store/discovered';
import { watchQuery } from '../store/live';
import { latestJob } from '../store/queries';

/** What the coverage card needs of the site's own llms.txt: where it is and the URLs it lists. */
export interface PublishedListing {
  /** The discovered row, to read its text again for a download. */
  id: number;
  url: string;
  /** Every link of the file (sections and details), in its order. */
  urls: string[];
}

interface Subscriber<T> {
  next: (value: T) => void;
  error: (error: unknown) => void;
}

/**
 * The site's newest finished discovery run: a small record, so watching it costs little, and it
 * changes once a run, where the rows of `discovered` (each with its whole file, up to 10 MB)
 * change with every location a run checks.
 */
async function finishedDiscovery(db: Store, origin: string): Promise<string | null> {
  const job = await latestJob(db, origin, 'discovery', 'done');
  return job?.id ?? null;
}

/**
 * The best llms.txt a finished discovery run found, as its URLs: the rows are read one at a time
 * until the best one, and its text is dropped once parsed.
 */
export async function publishedListing(db: Store, discoveryJobId: string): Promise<PublishedListing | null> {
  const best = await bestFinding(db, discoveryJobId);
  if (!best?.text || best.id === undefined) return null;
  const parsed = parseLlmsTxt(best.text, best.url);
  return { id: best.id, url: best.url, urls: [...parsed.links, ...parsed.detailLinks].map((l) => l.url) };
}

/**
 * The published llms.txt discovery chose for the site, as it changes: read again only when a
 * discovery run finishes, not on each of its writes.
 */
export function watchPublishedListing(db: Store, origin: string) {
  return {
    subscribe(onNext: (value: PublishedListing | null) => void, onError: (error: unknown) => void = () => undefined) {
      const out: Subscriber<PublishedListing | null> = { next: onNext, error: onError };
      let shown: string | null | undefined;
      let closed = false;
      const watch = watchQuery(
        () => finishedDiscovery(db, origin),
        (jobId) => {
          if (jobId === shown) return;
          shown = jobId;
          if (jobId === null) return out.next(null);
          publishedListing(db, jobId).then(
            (listing) => {
              if (!closed && shown === jobId) out.next(listing);
            },
            (error: unknown) => {
              if (!closed) out.error(error);
            },
          );
        },
        (error) => out.error(error),
      );
      return {
        unsubscribe: () => {
          closed = true;
          watch.unsubscribe();
        },
      };
    },
  };
}
