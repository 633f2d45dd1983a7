import { Injectable } from '@nestjs/common';

import type { ProjectAccess } from '../projects/project.types';
import { ReleaseHealthRepository } from './release-health.repository';

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
  constructor(private readonly repository: ReleaseHealthRepository) {}

  async list(
    access: ProjectAccess,
    filter: { release?: string; environment?: string },
  ): Promise<ReleaseHealth[]> {
    const rows = await this.repository.counts(
      access.project.id,
      filter.release ?? null,
      filter.environment ?? null,
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
