import type { MarketplaceTx } from '../persistence/marketplace-database';

/**
 * Holds a transaction-level advisory lock named `key` until `tx` ends, so
 * that a count and the insert it allows are not raced past a limit by
 * another request (or replica).
 */
export async function serialize(tx: MarketplaceTx, key: string): Promise<void> {
  await tx.rows('SELECT pg_advisory_xact_lock(hashtext($1))', [
    `quitanda:manage:${key}`,
  ]);
}
