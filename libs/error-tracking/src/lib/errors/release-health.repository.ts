import { Injectable } from '@nestjs/common';

import { ErrorTrackingRepository } from '../persistence/error-tracking-repository';

/** Session counts of one release and environment, as PostgreSQL sums them. */
export interface ReleaseSessionCounts {
  readonly release: string;
  readonly environment: string;
  /** Sums are numeric: bigint text, which the service turns into numbers. */
  readonly sessions: string;
  readonly errored: string;
  readonly crashed: string;
  readonly abnormal: string;
}

/** Release health's one read, over both kinds of session rows. */
@Injectable()
export class ReleaseHealthRepository extends ErrorTrackingRepository {
  /** Per release and environment, ordered by both; null filters match all. */
  counts(
    projectId: number,
    release: string | null,
    environment: string | null,
  ): Promise<ReleaseSessionCounts[]> {
    return this.sql.rows<ReleaseSessionCounts & Record<string, unknown>>(
      `SELECT release, environment, sum(sessions) AS sessions, sum(errored) AS errored,
              sum(crashed) AS crashed, sum(abnormal) AS abnormal
         FROM (
           SELECT release, environment, count(*) AS sessions,
                  count(*) FILTER (WHERE errored AND NOT crashed AND NOT abnormal) AS errored,
                  count(*) FILTER (WHERE crashed) AS crashed,
                  count(*) FILTER (WHERE abnormal AND NOT crashed) AS abnormal
             FROM error_tracking.release_sessions
            WHERE project_id = $1 AND ($2::text IS NULL OR release = $2)
              AND ($3::text IS NULL OR environment = $3)
            GROUP BY release, environment
           UNION ALL
           SELECT release, environment, sum(exited + errored + crashed + abnormal),
                  sum(errored), sum(crashed), sum(abnormal)
             FROM error_tracking.release_session_buckets
            WHERE project_id = $1 AND ($2::text IS NULL OR release = $2)
              AND ($3::text IS NULL OR environment = $3)
            GROUP BY release, environment
         ) counts
        GROUP BY release, environment
        ORDER BY release, environment`,
      [projectId, release, environment],
    );
  }
}
