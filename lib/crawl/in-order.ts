/**
 * Hands results on in the order their work started, whatever order it finishes in. The crawl's
 * writer numbers the links a page finds (the frontier's seq) and tells duplicates apart by which
 * copy it stored first, so writing pages as their fetches finish made both depend on the network's
 * timing: at the page limit, which pages made it differed from one run to the next. Written in the
 * order started — the frontier's breadth-first order on one host — every link is numbered the same
 * on every run, each URL is claimed in the same order, and the pages a limit admits are the same.
 *
 * A result that finished early waits for the ones started before it (`held`); the caller bounds
 * how many may wait.
 */
export class InOrder<T> {
  private issued = 0;
  private next = 0;
  private readonly waiting = new Map<number, T | null>();
  private weight = 0;

  constructor(
    private readonly emit: (item: T) => void,
    /** What a held result weighs (its size), for the caller's bound on what is held. */
    private readonly weigh: (item: T) => number = () => 0,
  ) {}

  /** The place of the next piece of work, taken when it starts. */
  ticket(): number {
    return this.issued++;
  }

  /** The result of the work at `ticket`, or null when it gives none (aborted): emitted once all before it are. */
  settle(ticket: number, item: T | null): void {
    if (ticket < this.next || this.waiting.has(ticket)) throw new Error(`InOrder: ticket ${ticket} settled twice`);
    this.waiting.set(ticket, item);
    if (item !== null) this.weight += this.weigh(item);
    while (this.waiting.has(this.next)) {
      const ready = this.waiting.get(this.next) ?? null;
      this.waiting.delete(this.next);
      this.next++;
      if (ready === null) continue;
      this.weight -= this.weigh(ready);
      this.emit(ready);
    }
  }

  /** What the held results weigh together. */
  get heldWeight(): number {
    return this.weight;
  }

  /** Results finished and waiting for work started before them. */
  get held(): number {
    return this.waiting.size;
  }
}
