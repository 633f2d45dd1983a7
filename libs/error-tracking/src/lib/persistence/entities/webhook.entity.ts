import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

import { ERROR_TRACKING_SCHEMA } from '../../common/error-tracking.constants';

/** A project webhook (GitLab's project hook, error-tracking events only). */
@Entity({ name: 'webhooks', schema: ERROR_TRACKING_SCHEMA })
@Index('webhooks_project_id_idx', ['projectId'])
export class WebhookEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'webhooks_pkey' })
  id!: number;

  @Column({ type: 'integer' })
  projectId!: number;

  @Column({ type: 'text' })
  url!: string;

  /** The secret token, AES-256-GCM encrypted (it has to be sent back). */
  @Column({ type: 'text', nullable: true })
  tokenCiphertext!: string | null;

  @Column({ type: 'boolean', default: true })
  errorTrackingEvents!: boolean;

  @Column({ type: 'boolean', default: true })
  enableSslVerification!: boolean;

  @Column({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
