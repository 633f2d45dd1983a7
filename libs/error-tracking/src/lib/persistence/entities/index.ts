import { AlertDeliveryEntity } from './alert-delivery.entity';
import { AlertEmailOptOutEntity } from './alert-email-opt-out.entity';
import { AlertEntity } from './alert.entity';
import { ArtifactBundleEntity } from './artifact-bundle.entity';
import { ArtifactChunkEntity } from './artifact-chunk.entity';
import { ArtifactFileEntity } from './artifact-file.entity';
import { ClientKeyEntity } from './client-key.entity';
import { DiscardedEventEntity } from './discarded-event.entity';
import { DrainedSpoolRequestEntity } from './drained-spool-request.entity';
import { ErrorFacetEntity } from './error-facet.entity';
import { ErrorTagEntity } from './error-tag.entity';
import { ErrorMergeEntity } from './error-merge.entity';
import { ErrorHourlyCountEntity } from './error-hourly-count.entity';
import { ErrorUserEntity } from './error-user.entity';
import { ErrorEntity } from './error.entity';
import { EventAttachmentChunkEntity } from './event-attachment-chunk.entity';
import { EventAttachmentEntity } from './event-attachment.entity';
import { EventIdEntity } from './event-id.entity';
import { EventEntity } from './event.entity';
import { IssueEntity } from './issue.entity';
import { InstanceSettingEntity } from './instance-setting.entity';
import { MaintenanceRunEntity } from './maintenance-run.entity';
import { PersonalAccessTokenEntity } from './personal-access-token.entity';
import { ProjectMemberEntity } from './project-member.entity';
import { ProjectEntity } from './project.entity';
import { RateLimitWindowEntity } from './rate-limit-window.entity';
import { ReleaseEntity } from './release.entity';
import { ReleaseSessionBucketEntity } from './release-session-bucket.entity';
import { ReleaseSessionEntity } from './release-session.entity';
import { SignInThrottleEntity } from './sign-in-throttle.entity';
import { UserEntity } from './user.entity';
import { WebSessionEntity } from './web-session.entity';
import { WebhookAttemptEntity } from './webhook-attempt.entity';
import { WebhookEntity } from './webhook.entity';

/** Every entity of the error_tracking schema. */
export const ERROR_TRACKING_ENTITIES = [
  UserEntity,
  PersonalAccessTokenEntity,
  ProjectEntity,
  ProjectMemberEntity,
  ClientKeyEntity,
  ErrorEntity,
  ErrorHourlyCountEntity,
  ErrorUserEntity,
  ErrorFacetEntity,
  ErrorTagEntity,
  ErrorMergeEntity,
  EventIdEntity,
  EventEntity,
  EventAttachmentEntity,
  EventAttachmentChunkEntity,
  IssueEntity,
  ReleaseSessionEntity,
  ReleaseSessionBucketEntity,
  DiscardedEventEntity,
  RateLimitWindowEntity,
  DrainedSpoolRequestEntity,
  MaintenanceRunEntity,
  InstanceSettingEntity,
  WebSessionEntity,
  SignInThrottleEntity,
  AlertEntity,
  AlertDeliveryEntity,
  WebhookEntity,
  WebhookAttemptEntity,
  AlertEmailOptOutEntity,
  ArtifactChunkEntity,
  ArtifactBundleEntity,
  ArtifactFileEntity,
  ReleaseEntity,
];
