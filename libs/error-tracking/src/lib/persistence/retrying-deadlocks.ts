const RETRYABLE = new Set(['40P01', '40001']);

/**
 * Runs a transaction again when PostgreSQL chose it as a deadlock's or a
 * serialization failure's victim (its work was rolled back), at most
 * `attempts` times in all.
 */
export async function retryingDeadlocks<T>(
  work: () => Promise<T>,
  attempts = 4,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (
        attempt >= attempts ||
        typeof code !== 'string' ||
        !RETRYABLE.has(code)
      )
        throw error;
    }
  }
}
