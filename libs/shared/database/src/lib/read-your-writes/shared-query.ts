const ignore = () => undefined;

/**
 * One query that many callers at once share, as one round trip: a position
 * asked by every request that needs it would be one query per request.
 */
export class SharedQuery<T> {
  private running?: { readonly promise: Promise<T>; readonly at: number };
  private queued?: Promise<T>;
  private settled?: { readonly value: T; readonly at: number };

  constructor(
    private readonly query: () => Promise<T>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The last answer and when its query began, if one came. */
  get last(): { readonly value: T; readonly at: number } | undefined {
    return this.settled;
  }

  /**
   * An answer from a query begun after this call (so it reflects every
   * commit before it): a query already running may have begun too early,
   * so callers meanwhile share the one that follows it.
   */
  fresh(): Promise<T> {
    const running = this.running;
    if (!running) return this.start();
    this.queued ??= running.promise.then(ignore, ignore).then(() => {
      this.queued = undefined;
      return this.start();
    });
    return this.queued;
  }

  /** The last answer if its query began under `maxAgeMs` ago, else a new one (or the one running). */
  recent(maxAgeMs: number): Promise<T> {
    const settled = this.settled;
    if (settled && this.now() - settled.at < maxAgeMs)
      return Promise.resolve(settled.value);
    return this.running?.promise ?? this.start();
  }

  private start(): Promise<T> {
    const at = this.now();
    const promise = this.query().then((value) => {
      if (!this.settled || this.settled.at <= at) this.settled = { value, at };
      return value;
    });
    const running = { promise, at };
    this.running = running;
    const done = () => {
      if (this.running === running) this.running = undefined;
    };
    promise.then(done, done);
    return promise;
  }
}
