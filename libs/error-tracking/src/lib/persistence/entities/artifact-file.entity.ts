import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/**
 * One file of an artifact bundle: a source map or a minified source, found
 * by debug id, or by release and `~/` URL (the legacy upload).
 */
@Entity({ name: 'artifact_files', schema: ERROR_TRACKING_SCHEMA })
@Index('artifact_files_bundle_id_idx', ['bundleId'])
@Index('artifact_files_debug_id_idx', ['projectId', 'debugId', 'type'])
@Index('artifact_files_release_url_idx', ['projectId', 'release', 'url'])
export class ArtifactFileEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'artifact_files_pkey' })
  id!: number;

  /** `artifact_bundles.id`. */
  @Column({ type: 'integer' })
  bundleId!: number;

  @Column({ type: 'integer' })
  projectId!: number;

  /** `source_map` or `minified_source` (other manifest types are kept as given). */
  @Column({ type: 'text' })
  type!: string;

  /** The manifest's URL: `~/static/app.min.js`. */
  @Column({ type: 'text' })
  url!: string;

  @Column({ type: 'uuid', nullable: true })
  debugId!: string | null;

  /** The bundle's release (legacy uploads), copied for the URL lookup. */
  @Column({ type: 'text', nullable: true })
  release!: string | null;

  @Column({ type: 'text', nullable: true })
  dist!: string | null;

  /** The manifest's `sourcemap` header: where a minified source's map is. */
  @Column({ type: 'text', nullable: true })
  sourcemap!: string | null;

  @Column({ type: 'bytea' })
  content!: Buffer;
}
