import type { ProjectRecord } from './project.types';

/**
 * A project row as the repositories that read or update `projects` select
 * it (the projects' own, and the settings', which writes the setting
 * columns of the same row).
 */
export interface ProjectRow {
  id: number;
  name: string;
  path: string;
  description: string;
  created_at: Date;
  tracking_active: boolean;
  tracking_integrated: boolean;
}

/** The columns of a `ProjectRow`, on `error_tracking.projects p`. */
export const PROJECT_COLUMNS =
  'p.id, p.name, p.path, p.description, p.created_at, p.tracking_active, p.tracking_integrated';

export function toProject(row: ProjectRow): ProjectRecord {
  return {
    id: row.id,
    name: row.name,
    path: row.path,
    description: row.description,
    createdAt: row.created_at,
    trackingActive: row.tracking_active,
    trackingIntegrated: row.tracking_integrated,
  };
}
