/** How a `WriteBatches` groups its items. */
export interface WriteBatchLimits<Item> {
  /** Batches in flight at once; the rest wait for one to finish. */
  readonly flights: number;
  /** Items in one batch at most. */
  readonly items: number;
  /**
   * What one batch may weigh at most, by `weigh` (say, the characters of
   * what it sends); a batch's first item goes whatever it weighs.
   */
  readonly weight: number;
  readonly weigh: (item: Item) => number;
}

interface Waiting<Item, Outcome> {
  readonly item: Item;
  readonly resolve: (outcome: Outcome) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Group commit for one hot write: the items added in one turn of the event
 * loop, and those added while `flights` batches are in flight, go to the
 * database together, one statement and one commit for all. Alone, an item
 * waits only for the end of the turn it was added in.
 *
 * `write` answers one outcome per item, in their order; when it fails,
 * every item of the batch fails with its error. Each item's promise
 * settles after its batch has, so a caller answers only what committed.
 */
export class WriteBatches<Item, Outcome> {
  private waiting: Array<Waiting<Item, Outcome>> = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly write: (items: readonly Item[]) => Promise<Outcome[]>,
    private readonly limits: WriteBatchLimits<Item>,
  ) {}

  add(item: Item): Promise<Outcome> {
    return new Promise<Outcome>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.send();
      });
    });
  }

  private send(): void {
    while (this.waiting.length > 0 && this.inFlight < this.limits.flights) {
      const batch = this.waiting.splice(0, this.batchLength());
      this.inFlight++;
      const done = () => {
        this.inFlight--;
        this.send();
      };
      this.writeBatch(batch).then(done, done);
    }
  }

  /** How many of the waiting items the next batch takes. */
  private batchLength(): number {
    const { items, weight, weigh } = this.limits;
    let length = 0;
    let weighs = 0;
    for (const waiting of this.waiting) {
      weighs += weigh(waiting.item);
      if (length === items || (length > 0 && weighs > weight)) break;
      length++;
    }
    return length;
  }

  private async writeBatch(batch: Array<Waiting<Item, Outcome>>) {
    let outcomes: Outcome[];
    try {
      outcomes = await this.write(batch.map((waiting) => waiting.item));
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
      return;
    }
    batch.forEach((waiting, index) => {
      const outcome = outcomes[index];
      if (outcome === undefined)
        waiting.reject(new Error('A batched write answered fewer items.'));
      else waiting.resolve(outcome);
    });
  }
}
