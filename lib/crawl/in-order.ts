/**
 * Hands results on in the order their work started, whatever order it finishes in. The crawl's
 * writer numbers the links a page finds (the frontier's seq) and tells duplicates apart by which
 * copy it stored first, so writing pages as their fetches finish made both depend on the network's
 * timing: at the page limit, which pages made it differed from one run to the next. Written in the
 * order started — the frontier's breadth-first order on one host — every link is numbered the same
 * on every run, each URL is claimed in the same order, and the pages the page limit admits are the same.
 *
 * A result that finished early waits for the ones started before it (`held`); the caller bounds
 * how many may wait.
 */
export class InOrder<T> {
  private issued = 0;
  private next = 0;
  private readonly waiting = new Map<number, T | null>();
  private weight = 0;
  /** Places taken just before an issued ticket (ticketBefore): numbered -1, -2, … in the order taken. */
  private readonly before = new Map<number, number[]>();
  private inserted = 0;
  /** Places from ticketBefore not settled yet. */
  private readonly open = new Set<number>();

  constructor(
    private readonly emit: (item: T) => void,
    /** What a held result weighs (its size), for the caller's bound on what is held. */
    private readonly weigh: (item: T) => number = () => 0,
  ) {}

  /** The place of the next piece of work, taken when it starts. */
  ticket(): number {
    return this.issued++;
  }

  /**
   * A place just before `ticket` (after any taken before it already), for work that gave up its
   * own place and must come back at a point every run agrees on. `ticket` must not be emitted yet.
   */
  ticketBefore(ticket: number): number {
    if (ticket < this.next || ticket >= this.issued) throw new Error(`InOrder: no place before ticket ${ticket}`);
    const place = -++this.inserted;
    this.open.add(place);
    const list = this.before.get(ticket);
    if (list) list.push(place);
    else this.before.set(ticket, [place]);
    return place;
  }

  /** The result of the work at `ticket`, or null when it gives none (aborted): emitted once all before it are. */
  settle(ticket: number, item: T | null): void {
    const settled = ticket < 0 ? !this.open.delete(ticket) : ticket < this.next || this.waiting.has(ticket);
    if (settled) throw new Error(`InOrder: ticket ${ticket} settled twice`);
    this.waiting.set(ticket, item);
    if (item !== null) this.weight += this.weigh(item);
    for (;;) {
      const first = this.before.get(this.next);
      while (first && first.length > 0 && this.waiting.has(first[0] as number)) this.take(first.shift() as number);
      if (first?.length) return;
      if (first) this.before.delete(this.next);
      if (!this.waiting.has(this.next)) return;
      this.take(this.next++);
    }
  }

  private take(ticket: number): void {
    const ready = this.waiting.get(ticket) ?? null;
    this.waiting.delete(ticket);
    if (ready === null) return;
    this.weight -= this.weigh(ready);
    this.emit(ready);
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
