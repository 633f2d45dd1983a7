/**
 * Per-app settings read from the database: trusted for `ttlMs` (a change
 * made on another replica applies here within that time), reread once for
 * every request that finds them stale, and dropped at once by a change
 * made here.
 */
export class PerAppCache<T> {
  private readonly cache = new Map<string, { at: number; value: T }>();
  /** A reread under way, shared by every request that finds the cache stale. */
  private readonly reading = new Map<string, Promise<T>>();

  constructor(
    private readonly ttlMs: number,
    /** Reads the app's value; `cached` is the stale one, to reuse parts of. */
    private readonly read: (
      appKey: string,
      cached: T | undefined,
    ) => Promise<T>,
  ) {}

  get(appKey: string): Promise<T> {
    const cached = this.cache.get(appKey);
    if (cached && Date.now() - cached.at < this.ttlMs)
      return Promise.resolve(cached.value);
    const pending = this.reading.get(appKey);
    if (pending) return pending;
    const reading: Promise<T> = this.reread(appKey, cached?.value).finally(
      () => {
        if (this.reading.get(appKey) === reading) this.reading.delete(appKey);
      },
    );
    this.reading.set(appKey, reading);
    return reading;
  }

  private async reread(appKey: string, cached: T | undefined): Promise<T> {
    // Set synchronously by `get` right after this call starts.
    await Promise.resolve();
    const current = this.reading.get(appKey);
    const at = Date.now();
    const value = await this.read(appKey, cached);
    // A change dropped the app meanwhile: what was read must not stay.
    if (this.reading.get(appKey) === current)
      this.cache.set(appKey, { at, value });
    return value;
  }

  /** Runs a change of the app's settings, then drops what was cached. */
  async changing<R>(appKey: string, change: () => Promise<R>): Promise<R> {
    try {
      return await change();
    } finally {
      this.cache.delete(appKey);
      // A reread that began before the change must not cache what it read.
      this.reading.delete(appKey);
    }
  }
}
