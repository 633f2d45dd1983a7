import { Injectable } from '@nestjs/common';

import { ErrorTrackingRepository } from '../persistence/error-tracking-repository';
import { retryOnConflict } from '../persistence/retry-on-conflict';

/** A batch chosen as a deadlock's victim runs again, this often in all. */
const MAX_ATTEMPTS = 4;

/** A stored event's key and payload, as a batch reads it. */
export interface UntaggedEvent {
  readonly errorId: string;
  readonly timestamp: Date;
  readonly eventId: string;
  readonly receivedAt: Date;
  readonly payloadJson: string;
}

export interface EventPosition {
  readonly errorId: string;
  readonly timestamp: Date;
  readonly eventId: string;
}

@Injectable()
export class RetagRepository extends ErrorTrackingRepository {
  /** Up to `limit` events without tags after `after`, in key order. */
  async untaggedAfter(
    after: EventPosition,
    limit: number,
  ): Promise<UntaggedEvent[]> {
    const rows = await this.sql.rows<{
      error_id: string;
      timestamp: Date;
      event_id: string;
      received_at: Date;
      payload: string;
    }>(
      `SELECT error_id::text, timestamp, event_id::text, received_at, payload::text AS payload
         FROM error_tracking.events
        WHERE (error_id, timestamp, event_id) > ($1::bigint, $2::timestamptz, $3::uuid)
          AND tags IS NULL
        ORDER BY error_id, timestamp, event_id LIMIT $4`,
      [after.errorId, after.timestamp, after.eventId, limit],
    );
    return rows.map((row) => ({
      errorId: row.error_id,
      timestamp: row.timestamp,
      eventId: row.event_id,
      receivedAt: row.received_at,
      payloadJson: row.payload,
    }));
  }

  /**
   * Sets the tags of those events that still have none and adds them to
   * their errors' tag counts, in one transaction: errors locked first in the
   * flush's order, then the events, then the counts in key order. An event
   * retention deleted meanwhile is skipped (nothing to add). Returns how
   * many events were tagged.
   */
  async tag(
    events: ReadonlyArray<UntaggedEvent & { readonly tagsJson: string }>,
  ): Promise<number> {
    if (events.length === 0) return 0;
    const values = [
      events.map((e) => e.errorId),
      events.map((e) => e.timestamp),
      events.map((e) => e.eventId),
      events.map((e) => e.receivedAt),
      `[${events.map((e) => e.tagsJson).join(',')}]`,
    ];
    return retryOnConflict(MAX_ATTEMPTS, () =>
      this.sql.transaction(async (tx) => {
        await tx.rows(
          `SELECT 1 FROM error_tracking.errors WHERE id = ANY($1::bigint[])
              ORDER BY project_id, fingerprint FOR UPDATE`,
          [values[0]],
        );
        const [row] = await tx.rows<{ n: number }>(
          `WITH x AS (
               SELECT * FROM unnest($1::bigint[], $2::timestamptz[], $3::uuid[],
                                    $4::timestamptz[])
                        WITH ORDINALITY AS x(error_id, ts, event_id, received_at, ord)
             ),
             tagged AS (
               UPDATE error_tracking.events ev
                  SET tags = ($5::jsonb) -> (x.ord::int - 1)
                 FROM x
                WHERE ev.error_id = x.error_id AND ev.timestamp = x.ts
                  AND ev.event_id = x.event_id AND ev.received_at = x.received_at
                  AND ev.tags IS NULL
               RETURNING ev.error_id, ev.timestamp, ev.received_at, ev.tags
             ),
             counts AS (
               INSERT INTO error_tracking.error_tags AS t (error_id, key, value, count, first_seen, last_seen)
               SELECT g.error_id, p.key, p.value, count(*), min(g.timestamp),
                      max(greatest(g.timestamp, g.received_at))
                 FROM tagged g CROSS JOIN LATERAL jsonb_each_text(g.tags) AS p(key, value)
                GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
               ON CONFLICT (error_id, key, value) DO UPDATE SET
                 count = t.count + excluded.count,
                 first_seen = CASE WHEN t.first_seen IS NOT NULL
      THEN least(t.first_seen, excluded.first_seen) END,
                 last_seen = greatest(t.last_seen, excluded.last_seen)
             )
             SELECT count(*)::int AS n FROM tagged`,
          values,
        );
        return row?.n ?? 0;
      }),
    );
  }
}
