import { Column, Entity, PrimaryColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/** The environments and releases an error's events were seen in (list filters). */
@Entity({ name: 'error_facets', schema: ERROR_TRACKING_SCHEMA })
export class ErrorFacetEntity {
  @PrimaryColumn({
    type: 'bigint',
    primaryKeyConstraintName: 'error_facets_pkey',
  })
  errorId!: string;

  /** `environment` or `release`. */
  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'error_facets_pkey',
  })
  kind!: string;

  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'error_facets_pkey',
  })
  value!: string;

  @Column({ type: 'timestamptz', precision: 3 })
  lastSeen!: Date;
}
