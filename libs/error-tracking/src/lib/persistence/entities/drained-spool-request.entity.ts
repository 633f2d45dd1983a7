import { Column, Entity, PrimaryColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/**
 * A collector request drained from a gateway's spool, recorded by the flush
 * that committed it: a request drained again (a crash between that commit
 * and its removal from the spool) is skipped whole, sessions and client
 * reports included, which carry no id of their own. Kept only while the
 * spool may still hold the request.
 */
@Entity({ name: 'drained_spool_requests', schema: ERROR_TRACKING_SCHEMA })
export class DrainedSpoolRequestEntity {
  /** The spool file's identity (made with the file). */
  @PrimaryColumn({
    type: 'uuid',
    primaryKeyConstraintName: 'drained_spool_requests_pkey',
  })
  spoolId!: string;

  /** The request's row in that file (never reused there). */
  @PrimaryColumn({
    type: 'bigint',
    primaryKeyConstraintName: 'drained_spool_requests_pkey',
  })
  requestId!: string;

  @Column({ type: 'timestamptz', precision: 3 })
  drainedAt!: Date;
}
