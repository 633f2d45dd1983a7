import { Injectable } from '@nestjs/common';

import { ErrorTrackingRepository } from '../persistence/error-tracking-repository';
import type { JsonObject } from '../sentry-event/event-json';

/** An error with its latest event, as a batch reads it. */
export interface ErrorWithLatestEvent {
  readonly id: string;
  readonly title: string;
  readonly culprit: string;
  /** The event the error's fields came from (uuid form). */
  readonly lastEventId: string;
  /** Null when the event is gone (retention ran meanwhile). */
  readonly payload: JsonObject | null;
  readonly receivedAt: Date | null;
}

export interface Retitled {
  readonly id: string;
  readonly lastEventId: string;
  readonly title: string;
  readonly culprit: string;
}

@Injectable()
export class RetitleRepository extends ErrorTrackingRepository {
  /** Up to `limit` errors after `afterId`, in id order, with their latest event. */
  async errorsAfter(
    afterId: string,
    limit: number,
  ): Promise<ErrorWithLatestEvent[]> {
    const rows = await this.sql.rows<{
      id: string;
      title: string;
      culprit: string;
      last_event_id: string;
      payload: JsonObject | null;
      received_at: Date | null;
    }>(
      `SELECT e.id::text, e.title, e.culprit, e.last_event_id::text,
              ev.payload, ev.received_at
         FROM error_tracking.errors e
         LEFT JOIN error_tracking.event_ids i
           ON i.project_id = e.project_id AND i.event_id = e.last_event_id
         LEFT JOIN error_tracking.events ev
           ON ev.received_at = i.received_at AND ev.timestamp = i.timestamp
          AND ev.event_id = i.event_id AND ev.error_id = e.id
        WHERE e.id > $1::bigint
        ORDER BY e.id LIMIT $2`,
      [afterId, limit],
    );
    return rows.map((row) => ({
      id: row.id,
      title: row.title,
      culprit: row.culprit,
      lastEventId: row.last_event_id,
      payload: row.payload,
      receivedAt: row.received_at,
    }));
  }

  /**
   * Writes the new titles and culprits, each only if the error's latest
   * event is still the one they were derived from (a flush that moved it
   * meanwhile wrote fields derived by today's rules already). Rows are
   * locked in the flush's order (project, fingerprint), so a batch and a
   * flush never wait for each other in a cycle. Returns how many changed.
   */
  async update(retitled: readonly Retitled[]): Promise<number> {
    if (retitled.length === 0) return 0;
    const values = [
      retitled.map((r) => r.id),
      retitled.map((r) => r.lastEventId),
      retitled.map((r) => r.title),
      retitled.map((r) => r.culprit),
    ];
    return this.sql.transaction(async (tx) => {
      await tx.rows(
        `SELECT 1 FROM error_tracking.errors WHERE id = ANY($1::bigint[])
          ORDER BY project_id, fingerprint FOR UPDATE`,
        values.slice(0, 1),
      );
      const changed = await tx.rows(
        `UPDATE error_tracking.errors e
            SET title = x.title, culprit = x.culprit
           FROM unnest($1::bigint[], $2::uuid[], $3::text[], $4::text[])
                AS x(id, last_event_id, title, culprit)
          WHERE e.id = x.id AND e.last_event_id = x.last_event_id
            AND (e.title <> x.title OR e.culprit <> x.culprit)
         RETURNING e.id`,
        values,
      );
      return changed.length;
    });
  }
}
