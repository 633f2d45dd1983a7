import { Inject, Injectable } from '@nestjs/common';
import { CLOCK } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { ErrorTrackingError } from '../common/error-tracking.errors';
import { ErrorTrackingDatabase } from '../persistence/error-tracking.database';
import { retryOnConflict } from '../persistence/retry-on-conflict';
import type { ProjectAccess } from '../projects/project.types';
import { ErrorMergeRepository } from './error-merge.repository';
import type { ErrorRecord } from './error.types';
import { ErrorsRepository } from './errors.repository';

/** Errors merged into one per request (each moves all its events at once). */
export const MAX_MERGED_ERRORS = 100;

/** Tries of a merge that met a deadlock (with a flush or retention). */
const MAX_ATTEMPTS = 3;

/**
 * Merging errors into one: their events, counts, users and hourly counts
 * move to the kept error, and their fingerprints route future events to
 * it (so they are never a "new" error again, and alert as the kept one).
 */
@Injectable()
export class ErrorMergeService {
  constructor(
    private readonly db: ErrorTrackingDatabase,
    private readonly merges: ErrorMergeRepository,
    private readonly errors: ErrorsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Merges `mergedIds` into `keptId`, all of the project (else 404, and
   * nothing changes); returns the kept error.
   */
  async merge(
    access: ProjectAccess,
    keptId: string,
    mergedIds: readonly string[],
  ): Promise<ErrorRecord> {
    const others = [...new Set(mergedIds)];
    if (others.length === 0)
      throw ErrorTrackingError.invalidParameter('error_ids is missing');
    if (others.length > MAX_MERGED_ERRORS)
      throw ErrorTrackingError.invalidParameter(
        `error_ids has more than ${MAX_MERGED_ERRORS} errors`,
      );
    if (others.includes(keptId))
      throw ErrorTrackingError.invalidParameter(
        'error_ids includes the error they would merge into',
      );
    return retryOnConflict(MAX_ATTEMPTS, () =>
      this.mergeOnce(access.project.id, keptId, others),
    );
  }

  private async mergeOnce(
    projectId: number,
    keptId: string,
    mergedIds: readonly string[],
  ): Promise<ErrorRecord> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const locked = await this.merges.lock(projectId, keptId, mergedIds, tx);
      if (!locked || locked.found.length !== mergedIds.length + 1)
        throw ErrorTrackingError.notFound('Error');
      await this.merges.merge(
        {
          projectId,
          keptId,
          keptFingerprint: locked.keptFingerprint,
          mergedIds,
          now,
        },
        tx,
      );
      const kept = await this.errors.find(projectId, keptId, {}, tx);
      if (!kept) throw ErrorTrackingError.notFound('Error');
      return kept;
    });
  }
}
