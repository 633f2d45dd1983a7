/** One HTTP call of the load: its status and how long it took. */
export interface Call {
  readonly label: string;
  readonly status: number;
  readonly ms: number;
  readonly body: unknown;
}

/** Every call made through `call`, to check afterwards (no 5xx, say). */
export class CallLog {
  readonly calls: Call[] = [];

  async call(
    label: string,
    url: string,
    init: RequestInit = {},
  ): Promise<Call> {
    const started = performance.now();
    const res = await fetch(url, init);
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: kept as text for the failure message.
    }
    const call = {
      label,
      status: res.status,
      ms: performance.now() - started,
      body,
    };
    this.calls.push(call);
    return call;
  }

  serverErrors(): Call[] {
    return this.calls.filter((call) => call.status >= 500);
  }
}

/** Runs `tasks` with at most `concurrency` in flight; results in order. */
export async function inParallel<T>(
  concurrency: number,
  tasks: ReadonlyArray<() => Promise<T>>,
): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await (tasks[index] as () => Promise<T>)();
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(concurrency, tasks.length) }, worker),
  );
  return results;
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(
    sorted.length - 1,
    Math.ceil((p / 100) * sorted.length) - 1,
  );
  return sorted[Math.max(0, rank)] as number;
}
