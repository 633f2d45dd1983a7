import { Injectable } from '@nestjs/common';

import { ErrorTrackingRepository } from '../persistence/error-tracking-repository';
import type { TagKeyDistribution } from './tag-distribution';

interface KeyRow {
  key: string;
  total: string;
  unique_values: string;
  top: Array<[string, string, string]>;
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
              (SELECT json_agg(json_build_array(v.value, v.count::text, v.last_seen)
                               ORDER BY v.count DESC, v.value)
                 FROM (SELECT value, count, last_seen FROM error_tracking.error_tags t
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
        topValues: row.top.map(([value, count, lastSeen]) => ({
          value,
          count: Number(count),
          share: Number(count) / total,
          lastSeen: new Date(lastSeen),
        })),
      };
    });
  }
}
