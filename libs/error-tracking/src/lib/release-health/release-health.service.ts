import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Sql } from '@quitanda/database';
import { DataSource } from 'typeorm';

import { ERROR_TRACKING_DATA_SOURCE } from '../error-tracking.constants';
import type { ProjectAccess } from '../projects/project.types';

export interface ReleaseHealth {
  readonly release: string;
  readonly environment: string;
  /** Distinct sessions (each `sid` once) plus pre-aggregated ones. */
  readonly sessions: number;
  /** Sessions that had errors but ended normally. */
  readonly errored: number;
  readonly crashed: number;
  readonly abnormal: number;
  /** `1 - crashed / sessions`; null without sessions. */
  readonly crashFreeRate: number | null;
}

/**
 * Release health per release and environment, from `session` items (one
 * row per session id, its worst state) and `sessions` aggregates. A session
 * is counted in one final state: crashed, else abnormal, else errored.
 */
@Injectable()
export class ReleaseHealthService {
  private readonly sql: Sql;

  constructor(
    @InjectDataSource(ERROR_TRACKING_DATA_SOURCE) dataSource: DataSource,
  ) {
    this.sql = new Sql(dataSource);
  }

  async list(
    access: ProjectAccess,
    filter: { release?: string; environment?: string },
  ): Promise<ReleaseHealth[]> {
    const rows = await this.sql.rows<{
      release: string;
      environment: string;
      sessions: string;
      errored: string;
      crashed: string;
      abnormal: string;
    }>(
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
      [access.project.id, filter.release ?? null, filter.environment ?? null],
    );
    return rows.map((row) => {
      const sessions = Number(row.sessions);
      const crashed = Number(row.crashed);
      return {
        release: row.release,
        environment: row.environment,
        sessions,
        errored: Number(row.errored),
        crashed,
        abnormal: Number(row.abnormal),
        crashFreeRate: sessions > 0 ? 1 - crashed / sessions : null,
      };
    });
  }
}
