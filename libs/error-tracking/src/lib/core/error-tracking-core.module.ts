import { Module } from '@nestjs/common';

import { AccountsRepository } from '../accounts/accounts.repository';
import { AccountsService } from '../accounts/accounts.service';
import { InitialCredentialsRetirement } from '../accounts/initial-credentials-retirement';
import { RootBootstrapService } from '../accounts/root-bootstrap.service';
import { TokenAuthGuard } from '../accounts/token-auth.guard';
import { AlertSignal } from '../alerting/alert-signal';
import { ArtifactsRepository } from '../artifacts/artifacts.repository';
import { AttachmentsRepository } from '../attachments/attachments.repository';
import { AttachmentsService } from '../attachments/attachments.service';
import { SourceMapResolver } from '../artifacts/source-map-resolver';
import { ErrorMergeRepository } from '../errors/error-merge.repository';
import { ErrorMergeService } from '../errors/error-merge.service';
import { ErrorsRepository } from '../errors/errors.repository';
import { ErrorEventsService } from '../errors/error-events.service';
import { ErrorsService } from '../errors/errors.service';
import { ClientKeyCache } from '../settings/client-key-cache';
import { CollectorKeysRepository } from '../settings/collector-keys.repository';
import { IssueFollowsError } from '../issues/issue-follows-error';
import { IssuesRepository } from '../issues/issues.repository';
import { IssuesService } from '../issues/issues.service';
import { ErrorTrackingDatabase } from '../persistence/error-tracking.database';
import { ProjectAccessService } from '../projects/project-access.service';
import { ProjectsRepository } from '../projects/projects.repository';
import { ProjectsService } from '../projects/projects.service';
import { ClientKeysRepository } from '../settings/client-keys.repository';
import { SettingsRepository } from '../settings/settings.repository';
import { SettingsService } from '../settings/settings.service';
import { ErrorTagsRepository } from '../errors/error-tags.repository';
import { ErrorTagsService } from '../errors/error-tags.service';

/**
 * The domain every area shares (the GitLab API, the web UI, the CLI, the
 * collector, alerts): users and tokens, projects and access, settings and
 * client keys, errors and issues. It imports no area: an area imports this
 * module and adds its controllers or workers; `ErrorTrackingDatabase` (the
 * unit of work) stays inside it. `ClientKeyCache`, `AlertSignal` and
 * `SourceMapResolver` are provided here because each is one instance shared
 * by two areas (settings invalidate the collector's cache; a flush wakes the
 * alerts worker; the collector resolves frames against sentry-cli's uploads
 * through the resolver's cache).
 */
@Module({
  providers: [
    ErrorTrackingDatabase,
    AccountsRepository,
    AccountsService,
    InitialCredentialsRetirement,
    RootBootstrapService,
    TokenAuthGuard,
    ProjectsRepository,
    ProjectsService,
    ProjectAccessService,
    ClientKeysRepository,
    SettingsRepository,
    CollectorKeysRepository,
    ClientKeyCache,
    SettingsService,
    ErrorsRepository,
    ErrorsService,
    ErrorTagsRepository,
    ErrorTagsService,
    ErrorEventsService,
    ErrorMergeRepository,
    ErrorMergeService,
    IssuesRepository,
    IssueFollowsError,
    IssuesService,
    AlertSignal,
    ArtifactsRepository,
    AttachmentsRepository,
    AttachmentsService,
    SourceMapResolver,
  ],
  exports: [
    AccountsRepository,
    AccountsService,
    TokenAuthGuard,
    ProjectsRepository,
    ProjectsService,
    ProjectAccessService,
    ClientKeyCache,
    SettingsService,
    ErrorsRepository,
    ErrorsService,
    ErrorTagsService,
    ErrorEventsService,
    ErrorMergeService,
    IssuesService,
    AlertSignal,
    ArtifactsRepository,
    AttachmentsRepository,
    AttachmentsService,
    SourceMapResolver,
  ],
})
export class ErrorTrackingCoreModule {}
