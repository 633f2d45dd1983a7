import { Injectable } from '@nestjs/common';

import { ErrorTrackingRepository } from '../persistence/error-tracking-repository';
import type { TagKeyDistribution, TagValueCount } from './tag-distribution';

interface KeyRow {
  key: string;
  total: string;
  unique_values: string;
  top: Array<[string, string, string, string]>;
}

/**
 * A value's first sighting: its own, else (counted before first_seen was
 * kept) the error's, the earliest it can have been.
 */
const FIRST_SEEN = `coalesce(v.first_seen,
  (SELECT e.first_seen FROM error_tracking.errors e WHERE e.id = $1))`;

function valueCount(
  [value, count, firstSeen, lastSeen]: [string, string, string, string],
  total: number,
): TagValueCount {
  return {
    value,
    count: Number(count),
    share: Number(count) / total,
    firstSeen: new Date(firstSeen),
    lastSeen: new Date(lastSeen),
  };
}

/**
 * An error's tag distribution, read from the per-value counts the ingestion
 * flush keeps (`error_tags`), never from its events: one index range of the
 * error's rows, however many events it has.
 */
@Injectable()
export class ErrorTagsRepository extends ErrorTrackingRepository {
  async distribution(
    errorId: string,
    maxKeys: number,
    topValues: number,
  ): Promise<TagKeyDistribution[]> {
    const rows = await this.replica.rows<KeyRow>(
      `WITH keys AS (
         SELECT key, sum(count) AS total, count(*) AS unique_values
           FROM error_tracking.error_tags
          WHERE error_id = $1 AND count > 0
          GROUP BY key ORDER BY key LIMIT $2)
       SELECT k.key, k.total::text, k.unique_values::text,
              (SELECT json_agg(json_build_array(v.value, v.count::text, ${FIRST_SEEN}, v.last_seen)
                               ORDER BY v.count DESC, v.value)
                 FROM (SELECT value, count, first_seen, last_seen FROM error_tracking.error_tags t
                        WHERE t.error_id = $1 AND t.key = k.key AND t.count > 0
                        ORDER BY t.count DESC, t.value LIMIT $3) v) AS top
         FROM keys k ORDER BY k.key`,
      [errorId, maxKeys, topValues],
    );
    return rows.map((row) => {
      const total = Number(row.total);
      return {
        key: row.key,
        total,
        uniqueValues: Number(row.unique_values),
        topValues: row.top.map((value) => valueCount(value, total)),
      };
    });
  }

  /** One key's values of an error, most frequent first, at most `limit`. */
  async values(
    errorId: string,
    key: string,
    limit: number,
  ): Promise<TagValueCount[]> {
    const rows = await this.replica.rows<{
      top: Array<[string, string, string, string]>;
      total: string;
    }>(
      `SELECT (SELECT sum(count) FROM error_tracking.error_tags
                WHERE error_id = $1 AND key = $2 AND count > 0)::text AS total,
              coalesce((SELECT json_agg(json_build_array(v.value, v.count::text, ${FIRST_SEEN}, v.last_seen)
                                        ORDER BY v.count DESC, v.value)
                          FROM (SELECT value, count, first_seen, last_seen
                                  FROM error_tracking.error_tags t
                                 WHERE t.error_id = $1 AND t.key = $2 AND t.count > 0
                                 ORDER BY t.count DESC, t.value LIMIT $3) v), '[]') AS top`,
      [errorId, key, limit],
    );
    const row = rows[0];
    const total = Number(row?.total ?? 0);
    return (row?.top ?? []).map((value) => valueCount(value, total));
  }

  /**
   * How many kept events of each of `errorIds` carry one tag value (the
   * list's counts under a picker's selection); an error without any is 0.
   */
  async valueCounts(
    errorIds: readonly string[],
    key: string,
    value: string,
  ): Promise<Map<string, number>> {
    const rows = await this.replica.rows<{ error_id: string; count: string }>(
      `SELECT t.error_id::text, t.count::text FROM error_tracking.error_tags t
        WHERE t.error_id = ANY($1::bigint[]) AND t.key = $2 AND t.value = $3`,
      [errorIds, key, value],
    );
    const counts = new Map<string, number>(errorIds.map((id) => [id, 0]));
    for (const row of rows) counts.set(row.error_id, Number(row.count));
    return counts;
  }

  /** Releases the project's errors were seen in, most recently seen first (the list's picker). */
  async releases(projectId: number, limit: number): Promise<string[]> {
    const rows = await this.replica.rows<{ value: string }>(
      `SELECT f.value FROM error_tracking.error_facets f
         JOIN error_tracking.errors e ON e.id = f.error_id
        WHERE e.project_id = $1 AND f.kind = 'release' AND f.value <> ''
        GROUP BY f.value ORDER BY max(f.last_seen) DESC, f.value LIMIT $2`,
      [projectId, limit],
    );
    return rows.map((row) => row.value);
  }

  /** An error's events per UTC day since `from`, from its hourly counts. */
  async dailyCounts(
    errorId: string,
    from: Date,
  ): Promise<Array<[number, number]>> {
    const rows = await this.replica.rows<{ day: string; count: string }>(
      `SELECT extract(epoch FROM date_trunc('day', hour AT TIME ZONE 'UTC'))::bigint::text AS day,
              sum(count)::text AS count
         FROM error_tracking.error_hourly_counts
        WHERE error_id = $1 AND hour >= $2
        GROUP BY 1`,
      [errorId, from],
    );
    return rows.map((row) => [Number(row.day), Number(row.count)]);
  }
}
