import autocannon from 'autocannon';
import type { Options } from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  /** Requests answered in the run. */
  requests: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

/** One autocannon run: `connections` concurrent keep-alive connections for `seconds`. */
export async function load(
  url: string,
  options: Partial<Options>,
  seconds: number,
  connections: number,
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    pipelining: 1,
    ...options,
  } as Options);
  return {
    requestsPerSecond: result.requests.average,
    requests: result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}
