import { Injectable } from '@nestjs/common';

import type { Transaction } from '../persistence/error-tracking.database';
import { ErrorTrackingRepository } from '../persistence/error-tracking-repository';
import { PROJECT_COLUMNS, toProject } from '../projects/project-row';
import type { ProjectRow } from '../projects/project-row';
import type { ProjectRecord } from '../projects/project.types';

/** The error-tracking setting: two columns of the project's row. */
@Injectable()
export class SettingsRepository extends ErrorTrackingRepository {
  /** Sets the error-tracking setting; returns the updated project. */
  async updateSetting(
    projectId: number,
    setting: { readonly active: boolean; readonly integrated: boolean },
    tx: Transaction = this.sql,
  ): Promise<ProjectRecord> {
    const rows = await tx.rows<ProjectRow>(
      `UPDATE error_tracking.projects p SET tracking_active = $2, tracking_integrated = $3
        WHERE id = $1 RETURNING ${PROJECT_COLUMNS}`,
      [projectId, setting.active, setting.integrated],
    );
    return toProject(rows[0] as ProjectRow);
  }
}
