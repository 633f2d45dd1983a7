const MINUTE_MS = 60_000;

/** Items of one key and Sentry data category (`error`, `session`, ...). */
export interface WindowCount {
  readonly keyId: number;
  readonly category: string;
  readonly quantity: number;
}

/**
 * What this process knows of each key's rate-limit windows, one per Sentry
 * data category: the counts every replica's flushes reached, as of this
 * process's last flush. The flush itself decides (inside its transaction,
 * on the shared window rows); this only turns away requests the flush
 * would certainly refuse, without queueing them.
 */
export class RateLimiter {
  private readonly known = new Map<
    number,
    { window: number; counts: Map<string, number> }
  >();

  constructor(private readonly limitPerMinute: number) {}

  get limit(): number {
    return this.limitPerMinute;
  }

  static windowOf(now: Date): number {
    return Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS;
  }

  /** Seconds until the current window ends (at least 1). */
  static retryAfterSeconds(now: Date): number {
    const end = RateLimiter.windowOf(now) + MINUTE_MS;
    return Math.max(1, Math.ceil((end - now.getTime()) / 1000));
  }

  /**
   * The categories of `demand` (quantities per category) that would
   * certainly pass the limit now; empty when none would.
   */
  exceeded(
    keyId: number,
    demand: ReadonlyMap<string, number>,
    now: Date,
  ): string[] {
    const counts = this.counts(keyId, now);
    if (!counts) return [];
    return [...demand]
      .filter(([c, quantity]) => (counts.get(c) ?? 0) + quantity > this.limit)
      .map(([c]) => c)
      .sort();
  }

  /**
   * Which of these categories the key has passed this minute (after a
   * flush refused a request: what its answer names).
   */
  reached(keyId: number, categories: Iterable<string>, now: Date): string[] {
    const counts = this.counts(keyId, now);
    if (!counts) return [];
    return [...categories]
      .filter((c) => (counts.get(c) ?? 0) > this.limit)
      .sort();
  }

  private counts(keyId: number, now: Date): Map<string, number> | undefined {
    if (this.limitPerMinute <= 0) return undefined;
    const entry = this.known.get(keyId);
    return entry?.window === RateLimiter.windowOf(now)
      ? entry.counts
      : undefined;
  }

  /**
   * Adds what this process accepted without a flush (spooled while the
   * database was away) to its view; the next flush's shared counts replace it.
   */
  count(keyId: number, demand: ReadonlyMap<string, number>, now: Date): void {
    if (this.limitPerMinute <= 0) return;
    const counts = this.windowCounts(keyId, RateLimiter.windowOf(now));
    for (const [category, quantity] of demand)
      counts.set(category, (counts.get(category) ?? 0) + quantity);
  }

  /** Records the shared counts a flush returned. */
  observe(windows: readonly WindowCount[], now: Date): void {
    const window = RateLimiter.windowOf(now);
    for (const { keyId, category, quantity } of windows)
      this.windowCounts(keyId, window).set(category, quantity);
    if (this.known.size > 10_000) {
      for (const [keyId, entry] of this.known)
        if (entry.window !== window) this.known.delete(keyId);
    }
  }

  private windowCounts(keyId: number, window: number): Map<string, number> {
    let entry = this.known.get(keyId);
    if (!entry || entry.window !== window) {
      entry = { window, counts: new Map() };
      this.known.set(keyId, entry);
    }
    return entry.counts;
  }
}
