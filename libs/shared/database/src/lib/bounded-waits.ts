import { Client } from 'pg';

import { DEFAULT_DB_TIMEOUT_MS } from './database-defaults';

/** The message `pg` rejects a query with once `query_timeout` passes. */
const QUERY_TIMEOUT_MESSAGE = 'Query read timeout';

type QueryFn = (...args: unknown[]) => unknown;
const clientQuery = Client.prototype.query as unknown as QueryFn;

function timedOut(error: unknown): boolean {
  return (error as Error | undefined)?.message === QUERY_TIMEOUT_MESSAGE;
}

/**
 * `pg`'s Client, except that a query outliving `query_timeout` also drops
 * its connection. `pg` only stops waiting: the statement stays in flight, so
 * the connection would go back to the pool stuck behind it, and a
 * transaction left open on the server. Dropping it ends both (the server
 * rolls back when it sees the socket close) and the pool opens a fresh one.
 */
class BoundedClient extends Client {}

function drop(client: Client): void {
  (
    client as unknown as { connection?: { stream?: { destroy(): void } } }
  ).connection?.stream?.destroy();
}

(BoundedClient.prototype as unknown as { query: QueryFn }).query = function (
  this: Client,
  ...args: unknown[]
): unknown {
  const last = args.length - 1;
  const callback = args[last];
  if (typeof callback === 'function') {
    args[last] = (error: unknown, result: unknown) => {
      if (timedOut(error)) drop(this);
      (callback as (e: unknown, r: unknown) => void)(error, result);
    };
    return clientQuery.apply(this, args);
  }
  const result = clientQuery.apply(this, args);
  if (result instanceof Promise)
    return result.catch((error: unknown) => {
      if (timedOut(error)) drop(this);
      throw error;
    });
  return result;
};

/**
 * The one bound on every wait for the database, as `pg` pool options, so it
 * holds for every context alike: taking a connection from the pool or
 * opening one (`connectionTimeoutMillis`), each statement
 * (`query_timeout`, client-side, so nothing is sent at connection start-up
 * that PgBouncer in transaction mode would refuse), and TCP keepalive so a
 * peer that vanished is noticed.
 */
export function boundedWaits(timeoutMs = DEFAULT_DB_TIMEOUT_MS): {
  readonly Client: typeof Client;
  readonly connectionTimeoutMillis: number;
  readonly query_timeout: number;
  readonly keepAlive: boolean;
  readonly keepAliveInitialDelayMillis: number;
} {
  return {
    Client: BoundedClient,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  };
}
