import type { FrontierRecord, PageRecord, PageVersionRecord, ScoutDb } from '../db';
import type { Frontier } from '../crawl/frontier';
import { frontierStateOf, type PageOutcome } from '../crawl/process-page';
import type { RefreshCounters } from './counters';
import { decide } from './decide';

const BATCH = 32;

/**
 * Writes refresh results in batches: in one transaction the pages are updated (or
 * marked removed), the page versions recorded and the queue entries settled — so
 * a killed worker leaves each page either fully re-checked or still to check.
 */
export class RefreshWriter {
  private queue: Array<{ entry: FrontierRecord; outcome: PageOutcome }> = [];
  private flushing: Promise<void> | null = null;
  failure: unknown = null;

  constructor(
    private readonly db: ScoutDb,
    private readonly job: { id: string; crawlJobId: string },
    private readonly frontier: Frontier,
    private readonly threshold: number,
    private readonly counters: RefreshCounters,
    private readonly onFailure: (error: unknown) => void,
  ) {}

  add(entry: FrontierRecord, outcome: PageOutcome): void {
    if (this.failure) return;
    this.queue.push({ entry, outcome });
    this.flushing ??= this.flushAll().finally(() => (this.flushing = null));
  }

  async drain(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  private async flushAll(): Promise<void> {
    while (this.queue.length) {
      const batch = this.queue.splice(0, BATCH);
      try {
        await this.write(batch);
      } catch (error) {
        // Nothing more is written; the unwritten entries stay in flight and are re-checked on resume.
        this.failure = error;
        this.queue = [];
        this.onFailure(error);
        return;
      }
    }
  }

  private async write(batch: Array<{ entry: FrontierRecord; outcome: PageOutcome }>): Promise<void> {
    const { db, job } = this;
    const now = Date.now();
    const changes: Array<{ change: PageVersionRecord['change']; bytes: number }> = [];
    await db.transaction('rw', db.frontier, db.pages, db.pageVersions, async () => {
      const stored = await db.pages.bulkGet(batch.map((b) => [job.crawlJobId, b.entry.key] as [string, string]));
      const pages: PageRecord[] = [];
      const versions: PageVersionRecord[] = [];
      batch.forEach(({ outcome }, i) => {
        const old = stored[i];
        if (!old) return; // The crawl was deleted meanwhile: nothing to compare or update.
        const decision = decide(old, outcome, this.threshold);
        if (decision.page) pages.push(decision.page);
        versions.push({ ...decision.version, jobId: job.id, checkedAt: now });
        changes.push({ change: decision.change, bytes: outcome.state === 'done' ? outcome.page.bytes : 0 });
      });
      await db.pages.bulkPut(pages);
      await db.pageVersions.bulkAdd(versions);
      await db.frontier.bulkPut(batch.map(({ entry, outcome }) => ({ ...entry, state: frontierStateOf(outcome), reason: 'reason' in outcome ? outcome.reason : undefined, retries: outcome.retries, updatedAt: now })));
    });
    for (const { change, bytes } of changes) {
      this.counters[change]++;
      this.counters.bytes += bytes;
    }
    this.counters.checked += batch.length;
    this.frontier.settled(batch.map((b) => frontierStateOf(b.outcome)));
  }
}
