import type { Pool } from 'pg';

import { ReadYourWrites } from './read-your-writes';
import { parseWalPosition } from './wal-position';

async function position(pool: Pool, text: string): Promise<bigint | null> {
  const rows = (await pool.query<{ lsn: string | null }>(text)).rows;
  const lsn = rows[0]?.lsn;
  return lsn ? parseWalPosition(lsn) : null;
}

/**
 * The insert position, not the write position: with `synchronous_commit`
 * off a commit returns before its record is written out, and the insert
 * position is past it all the same.
 */
export const PRIMARY_POSITION =
  'SELECT pg_current_wal_insert_lsn()::text AS lsn';
const REPLAYED_POSITION = 'SELECT pg_last_wal_replay_lsn()::text AS lsn';

const trackers = new WeakMap<Pool, ReadYourWrites>();

/**
 * The read-your-writes memory of one primary pool and its replica pool
 * (one per context DataSource), made on first use: a gateway without
 * `DATABASE_READ_URL` never makes one.
 */
export function readYourWritesOf(primary: Pool, replica: Pool): ReadYourWrites {
  let tracker = trackers.get(primary);
  if (!tracker) {
    tracker = new ReadYourWrites({
      async primary() {
        const found = await position(primary, PRIMARY_POSITION);
        if (found === null) throw new Error('The primary has no WAL position');
        return found;
      },
      replayed: () => position(replica, REPLAYED_POSITION),
    });
    trackers.set(primary, tracker);
  }
  return tracker;
}
