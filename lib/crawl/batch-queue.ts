/**
 * Results written in batches, one batch at a time, in the order they came. Shared by the
 * crawl's and the refresh's writers. After a failed write nothing more is written: the items
 * stay in flight in the database (their queue entries) and are processed again on resume,
 * so nothing is lost.
 */
export class BatchQueue<T> {
  private queue: T[] = [];
  private writing = 0;
  private flushing: Promise<void> | null = null;
  /** The write error that stopped this queue, if any. */
  failure: unknown = null;

  constructor(
    private readonly size: number,
    private readonly write: (batch: T[]) => Promise<void>,
    /** Called once, when a batch cannot be written (storage full, database closed…). */
    private readonly onFailure: (error: unknown) => void,
    /** Called after each committed batch and when the queue runs dry. */
    private readonly onWritten: () => void = () => undefined,
  ) {}

  /** Items not yet committed (queued or in the batch being written). */
  get pending(): number {
    return this.queue.length + this.writing;
  }

  get idle(): boolean {
    return this.queue.length === 0 && this.flushing === null;
  }

  add(item: T): void {
    if (this.failure) return;
    this.queue.push(item);
    this.flushing ??= this.flushAll().finally(() => {
      this.flushing = null;
      this.onWritten();
    });
  }

  /** Resolves once everything added so far is committed (or the queue failed). */
  async drain(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  private async flushAll(): Promise<void> {
    while (this.queue.length) {
      const batch = this.queue.splice(0, this.size);
      this.writing = batch.length;
      try {
        await this.write(batch);
      } catch (error) {
        this.failure = error;
        this.queue = [];
        this.onFailure(error);
        return;
      } finally {
        this.writing = 0;
      }
      this.onWritten();
    }
  }
}
