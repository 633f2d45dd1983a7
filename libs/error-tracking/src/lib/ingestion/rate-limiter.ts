const MINUTE_MS = 60_000;

/**
 * What this process knows of each key's rate-limit window: the count every
 * replica's flushes reached, as of this process's last flush. The flush
 * itself decides (inside its transaction, on the shared window row); this
 * only turns away requests the flush would certainly refuse, without
 * queueing them.
 */
export class RateLimiter {
  private readonly known = new Map<
    number,
    { window: number; events: number }
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

  /** Whether `events` more would certainly exceed the limit now. */
  exceeded(keyId: number, events: number, now: Date): boolean {
    if (this.limitPerMinute <= 0) return false;
    const entry = this.known.get(keyId);
    if (!entry || entry.window !== RateLimiter.windowOf(now)) return false;
    return events > 0
      ? entry.events + events > this.limitPerMinute
      : entry.events > this.limitPerMinute;
  }

  /** Records the shared counts a flush returned. */
  observe(windows: ReadonlyMap<number, number>, now: Date): void {
    const window = RateLimiter.windowOf(now);
    for (const [keyId, events] of windows)
      this.known.set(keyId, { window, events });
    if (this.known.size > 10_000) {
      for (const [keyId, entry] of this.known)
        if (entry.window !== window) this.known.delete(keyId);
    }
  }
}
