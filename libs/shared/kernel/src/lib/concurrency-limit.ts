/**
 * Runs at most `max` tasks at once; the others wait their turn in order.
 * A finished task hands its slot straight to the next, so none is skipped
 * and none overtakes; a failing task frees its slot like any other.
 */
export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 1)
      throw new RangeError(`A concurrency limit must be 1 or more; got ${max}`);
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running < this.max) this.running += 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
