import { Injectable } from '@nestjs/common';

import { MarketplaceRepository } from '../persistence/marketplace-repository';

/** The clock hour `now` falls in: the window signups are counted in. */
export function signupWindow(now: Date): { start: Date; end: Date } {
  const start = Math.floor(now.getTime() / 3_600_000) * 3_600_000;
  return { start: new Date(start), end: new Date(start + 3_600_000) };
}

/** App-credential signups per app, client address and clock hour. */
@Injectable()
export class SignupCountsRepository extends MarketplaceRepository {
  /**
   * Counts a signup from `client` unless its window already holds `limit`:
   * one upsert, so concurrent signups cannot all pass. Forgets the windows
   * of past hours on the way (no job of its own). Whether it was counted.
   */
  async take(
    appKey: string,
    client: string,
    now: Date,
    limit: number,
  ): Promise<boolean> {
    const { start } = signupWindow(now);
    const rows = await this.sql.rows(
      `WITH past AS (DELETE FROM marketplace.signup_counts WHERE window_start < $3)
       INSERT INTO marketplace.signup_counts AS c (app_key, client, window_start, signups)
       VALUES ($1, $2, $3, 1)
       ON CONFLICT (app_key, client, window_start)
       DO UPDATE SET signups = c.signups + 1 WHERE c.signups < $4
       RETURNING 1`,
      [appKey, client, start, limit],
    );
    return rows.length === 1;
  }
}
