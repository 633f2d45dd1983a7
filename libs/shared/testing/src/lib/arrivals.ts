/** Things a test server received, and a way to wait for them (no sleeps). */
export class Arrivals<T> {
  readonly items: T[] = [];
  private readonly waiters = new Set<() => void>();

  constructor(private readonly what: string) {}

  push(item: T): void {
    this.items.push(item);
    for (const wake of [...this.waiters]) wake();
  }

  /** Resolves once `count` have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs = 15_000): Promise<T[]> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.items.length < count) return;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve(this.items.slice(0, count));
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(
          new Error(
            `expected ${count} ${this.what} within ${timeoutMs} ms, got ${this.items.length}`,
          ),
        );
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }
}
