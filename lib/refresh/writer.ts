import type { FrontierRecord, PageRecord, PageVersionRecord } from '../store/db';
import type { Store } from '../store/store';
import { BatchQueue } from '../crawl/batch-queue';
import type { Frontier } from '../crawl/frontier';
import { frontierStateOf, type PageOutcome } from '../crawl/processor';
import { markEmpty } from '../crawl/empty-page';
import type { RefreshCounters } from './counters';
import { decide } from './decide';
import { writeCheckedBatch } from '../store/page-versions';

const BATCH = 32;

/**
 * Writes refresh results in batches: in one transaction the pages are updated (or
 * marked removed), the page versions recorded and the queue entries settled — so
 * a killed worker leaves each page either fully re-checked or still to check.
 */
export class RefreshWriter {
  private readonly batches = new BatchQueue<{ entry: FrontierRecord; outcome: PageOutcome }>(BATCH, (batch) => this.write(batch), (error) => this.onFailure(error), () => this.onWritten());

  constructor(
    private readonly db: Store,
    private readonly job: { id: string; crawlJobId: string },
    private readonly frontier: Frontier,
    private readonly threshold: number,
    private readonly counters: RefreshCounters,
    private readonly onFailure: (error: unknown) => void,
    /** Called after each committed batch, so the runner notices the queue may be finished. */
    private readonly onWritten: () => void = () => undefined,
  ) {}

  get pending(): number {
    return this.batches.pending;
  }

  get idle(): boolean {
    return this.batches.idle;
  }

  add(entry: FrontierRecord, outcome: PageOutcome): void {
    this.batches.add({ entry, outcome: markEmpty(outcome) });
  }

  async drain(): Promise<void> {
    await this.batches.drain();
  }

  private async write(batch: Array<{ entry: FrontierRecord; outcome: PageOutcome }>): Promise<void> {
    const { db, job } = this;
    const now = Date.now();
    const changes: Array<{ change: PageVersionRecord['change']; bytes: number }> = [];
    await writeCheckedBatch(db, job.crawlJobId, batch.map((b) => b.entry.key), (stored) => {
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
      const settled = batch.map(({ entry, outcome }) => ({ ...entry, state: frontierStateOf(outcome), reason: 'reason' in outcome ? outcome.reason : undefined, retries: outcome.retries, updatedAt: now }));
      return { pages, versions, frontier: settled };
    });
    for (const { change, bytes } of changes) {
      this.counters[change]++;
      this.counters.bytes += bytes;
    }
    this.counters.checked += batch.length;
    this.frontier.settled(batch.map((b) => frontierStateOf(b.outcome)));
  }
}
