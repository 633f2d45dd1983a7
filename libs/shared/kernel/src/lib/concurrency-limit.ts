/** A task refused because `maxWaiting` tasks already wait their turn. */
export class ConcurrencyLimitFull extends Error {
  constructor(readonly maxWaiting: number) {
    super(`${maxWaiting} tasks already wait their turn`);
    this.name = 'ConcurrencyLimitFull';
  }
}

/**
 * Runs at most `max` tasks at once; the others wait their turn in order,
 * at most `maxWaiting` of them: one more is refused at once with
 * `ConcurrencyLimitFull`, so a flood costs its senders a quick refusal
 * rather than everyone an ever longer wait. A finished task hands its slot
 * straight to the next, so none is skipped and none overtakes; a failing
 * task frees its slot like any other.
 */
export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly max: number,
    readonly maxWaiting = Number.POSITIVE_INFINITY,
  ) {
    if (!Number.isInteger(max) || max < 1)
      throw new RangeError(`A concurrency limit must be 1 or more; got ${max}`);
    if (!(maxWaiting >= 0))
      throw new RangeError(`maxWaiting must be 0 or more; got ${maxWaiting}`);
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running < this.max) this.running += 1;
    else if (this.waiting.length >= this.maxWaiting)
      throw new ConcurrencyLimitFull(this.maxWaiting);
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
