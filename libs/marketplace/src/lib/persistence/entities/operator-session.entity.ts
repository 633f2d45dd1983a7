import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

import { MARKETPLACE_SCHEMA } from '../../common/marketplace.constants';

/** An operator's management session token; only its SHA-256 is stored. */
@Entity({ name: 'operator_sessions', schema: MARKETPLACE_SCHEMA })
@Index('operator_sessions_operator_id_idx', ['operatorId'])
export class OperatorSessionEntity {
  @PrimaryColumn({
    type: 'text',
    primaryKeyConstraintName: 'operator_sessions_pkey',
  })
  digest!: string;

  @Column({ type: 'text' })
  operatorId!: string;

  @Column({ type: 'timestamptz', precision: 3 })
  expiresAt!: Date;

  @Column({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
