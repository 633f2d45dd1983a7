import { AccountMailQuietEntity } from './account-mail-quiet.entity';
import { AccountMailEntity } from './account-mail.entity';
import { AccountTokenEntity } from './account-token.entity';
import { AppEntity } from './app.entity';
import { CollectionEntity } from './collection.entity';
import { FileChunkEntity } from './file-chunk.entity';
import { FileEntity } from './file.entity';
import { LoginAttemptEntity } from './login-attempt.entity';
import { ManagedAppEntity } from './managed-app.entity';
import { ManagedServiceEnvironmentEntity } from './managed-service-environment.entity';
import { ManagedServiceEntity } from './managed-service.entity';
import { ManagedEnvironmentEntity } from './managed-environment.entity';
import { OperatorSessionEntity } from './operator-session.entity';
import { OperatorEntity } from './operator.entity';
import { RecordTombstoneEntity } from './record-tombstone.entity';
import { RecordUniqueValueEntity } from './record-unique-value.entity';
import { RecordEntity } from './record.entity';
import { SignupCountEntity } from './signup-count.entity';
import { UserTokenEntity } from './user-token.entity';
import { UserEntity } from './user.entity';

/** Every entity of the marketplace schema. */
export const MARKETPLACE_ENTITIES = [
  AppEntity,
  UserEntity,
  UserTokenEntity,
  AccountTokenEntity,
  AccountMailQuietEntity,
  AccountMailEntity,
  LoginAttemptEntity,
  SignupCountEntity,
  CollectionEntity,
  RecordEntity,
  RecordTombstoneEntity,
  RecordUniqueValueEntity,
  FileEntity,
  FileChunkEntity,
  OperatorEntity,
  OperatorSessionEntity,
  ManagedAppEntity,
  ManagedEnvironmentEntity,
  ManagedServiceEntity,
  ManagedServiceEnvironmentEntity,
];
