/** A deadlock or a serialisation failure: the transaction may simply run again. */
const RETRYABLE = new Set(['40P01', '40001']);

export function isRetryableConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && RETRYABLE.has(code);
}

/** Runs `work` again (up to `attempts` in all) while it fails on a retryable conflict. */
export async function retryOnConflict<T>(
  attempts: number,
  work: () => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isRetryableConflict(error)) throw error;
    }
  }
}
