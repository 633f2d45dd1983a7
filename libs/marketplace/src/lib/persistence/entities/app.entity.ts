import { Column, Entity, PrimaryColumn } from 'typeorm';

import { MARKETPLACE_SCHEMA } from '../../common/marketplace.constants';

/** A Kinvey app: the tenant every record, user and file belongs to. */
@Entity({ name: 'apps', schema: MARKETPLACE_SCHEMA })
export class AppEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'apps_pkey' })
  appKey!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text', default: 'Development' })
  environmentName!: string;

  /** SHA-256 of the app secret (random, so a fast hash suffices). */
  @Column({ type: 'text' })
  appSecretDigest!: string;

  @Column({ type: 'text' })
  masterSecretDigest!: string;

  @Column({ type: 'text', default: 'read-create' })
  appCredentialAccess!: string;

  /** Whether a write to an undeclared collection declares it (default settings). */
  @Column({ type: 'boolean', default: false })
  createCollectionsOnWrite!: boolean;

  /** HMAC key of the app's signed upload and download URLs. */
  @Column({ type: 'text' })
  signingKey!: string;

  @Column({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
