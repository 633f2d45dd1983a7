import { Module } from '@nestjs/common';
import type {
  DynamicModule,
  INestApplicationContext,
  MiddlewareConsumer,
  NestModule,
} from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { unsafeRequestError } from '@quitanda/http';
import type { NextFunction, Request, Response } from 'express';

import { AlertComposer } from './alerts/alert-content';
import { AlertLinks } from './alerts/alert-links';
import { AlertMailer } from './alerts/alert-mailer';
import { AlertRulesController } from './alerts/alert-rules.controller';
import { AlertSignal } from './alerts/alert-signal';
import { AlertsRepository } from './alerts/alerts.repository';
import { AlertsService } from './alerts/alerts.service';
import { AlertsWorker } from './alerts/alerts-worker';
import { HooksController } from './alerts/hooks.controller';
import { WebhookDispatcher } from './alerts/webhook-dispatcher';
import { AccountsRepository } from './accounts/accounts.repository';
import { AccountsService } from './accounts/accounts.service';
import { RootBootstrapService } from './accounts/root-bootstrap.service';
import { TokenAuthGuard } from './accounts/token-auth.guard';
import { GitLabUsersController } from './accounts/users.controller';
import {
  CreateTokenCommand,
  CreateUserCommand,
  SetUserPasswordCommand,
  RunRetentionCommand,
} from './cli/error-tracking-cli.commands';
import { ERROR_TRACKING_OPTIONS } from './error-tracking.constants';
import type { ErrorTrackingModuleOptions } from './error-tracking.options';
import { ErrorsController } from './errors/errors.controller';
import { ErrorsRepository } from './errors/errors.repository';
import { ErrorsService } from './errors/errors.service';
import { apiBody } from './http/api-body.middleware';
import { gitlabJsonContentType } from './http/gitlab-json.middleware';
import { ClientKeyCache } from './ingestion/client-key-cache';
import { CollectorKeysRepository } from './ingestion/collector-keys.repository';
import { CollectorController } from './ingestion/collector.controller';
import { IngestionQueue } from './ingestion/ingestion-queue';
import { IngestionMetrics } from './ingestion/ingestion.metrics';
import { IngestionRepository } from './ingestion/ingestion.repository';
import { IngestionService } from './ingestion/ingestion.service';
import { IssueFollowsError } from './issues/issue-follows-error';
import { IssuesController } from './issues/issues.controller';
import { IssuesRepository } from './issues/issues.repository';
import { IssuesService } from './issues/issues.service';
import { ProjectAccessService } from './projects/project-access.service';
import { ProjectsController } from './projects/projects.controller';
import { ProjectsRepository } from './projects/projects.repository';
import { ProjectsService } from './projects/projects.service';
import { ErrorTrackingDatabase } from './persistence/error-tracking.database';
import { ReleaseHealthRepository } from './release-health/release-health.repository';
import { ReleaseHealthService } from './release-health/release-health.service';
import { RetentionRepository } from './retention/retention.repository';
import { RetentionService } from './retention/retention.service';
import { ClientKeysRepository } from './settings/client-keys.repository';
import { SettingsController } from './settings/settings.controller';
import { SettingsService } from './settings/settings.service';
import { ArtifactsRepository } from './sourcemaps/artifacts.repository';
import { SentryApiController } from './sourcemaps/sentry-api.controller';
import { SentryApiService } from './sourcemaps/sentry-api.service';
import { SourceMapResolver } from './sourcemaps/source-map-resolver';
import { WebSessionsRepository } from './web/sessions/web-sessions.repository';
import { WebSessionsService } from './web/sessions/web-sessions.service';
import { WebAlertsController } from './web/web-alerts.controller';
import { WebAssetsController } from './web/web-assets.controller';
import { WebContextMiddleware } from './web/web-context';
import { WebErrorsController } from './web/web-errors.controller';
import { webForm } from './web/web-form.middleware';
import { WebIssuesController } from './web/web-issues.controller';
import { WebProjectsController } from './web/web-projects.controller';
import { WebSessionController } from './web/web-session.controller';

/** Providers of the collector (also used by specs without HTTP). */
export const INGESTION_PROVIDERS = [
  AlertSignal,
  CollectorKeysRepository,
  ClientKeyCache,
  ArtifactsRepository,
  SourceMapResolver,
  IngestionMetrics,
  IngestionRepository,
  IngestionQueue,
  IngestionService,
];

/** Users, tokens, projects, settings, errors, issues (no HTTP, no schedule). */
export const DOMAIN_PROVIDERS = [
  ErrorTrackingDatabase,
  CollectorKeysRepository,
  AccountsRepository,
  AccountsService,
  RootBootstrapService,
  ProjectsRepository,
  ProjectsService,
  ProjectAccessService,
  ClientKeysRepository,
  SettingsService,
  ErrorsRepository,
  ErrorsService,
  IssuesRepository,
  IssuesService,
  IssueFollowsError,
  ReleaseHealthRepository,
  ReleaseHealthService,
  RetentionRepository,
  ArtifactsRepository,
  SentryApiService,
];

/** Alert settings, hooks and delivery (the worker is added by the module). */
export const ALERT_PROVIDERS = [
  AlertsRepository,
  AlertLinks,
  AlertComposer,
  AlertMailer,
  WebhookDispatcher,
  AlertsService,
];

const API_CONTROLLERS = [
  GitLabUsersController,
  ProjectsController,
  SettingsController,
  ErrorsController,
  IssuesController,
  HooksController,
  AlertRulesController,
];

/** The web UI's pages (HTML; sessions, CSRF and security headers). */
const WEB_CONTROLLERS = [
  WebSessionController,
  WebProjectsController,
  WebAlertsController,
  WebErrorsController,
  WebIssuesController,
];

/**
 * The error-tracking context (GitLab integrated error tracking over the
 * Sentry protocol). Expects the gateway to register the
 * `ERROR_TRACKING_DATA_SOURCE` connection, `CLOCK` and `METRICS_REGISTRY`.
 */
@Module({})
export class ErrorTrackingModule implements NestModule {
  static forRoot(options: ErrorTrackingModuleOptions): DynamicModule {
    return {
      module: ErrorTrackingModule,
      imports: [ScheduleModule.forRoot()],
      controllers: [
        CollectorController,
        SentryApiController,
        ...API_CONTROLLERS,
        ...WEB_CONTROLLERS,
        WebAssetsController,
      ],
      providers: [
        { provide: ERROR_TRACKING_OPTIONS, useValue: options },
        ...INGESTION_PROVIDERS,
        ...DOMAIN_PROVIDERS,
        ...ALERT_PROVIDERS,
        AlertsWorker,
        RetentionService,
        TokenAuthGuard,
        WebSessionsRepository,
        WebSessionsService,
        WebContextMiddleware,
      ],
      exports: [RootBootstrapService],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    // The collector reads its bodies itself (raw, any encoding).
    consumer
      .apply(gitlabJsonContentType(), apiBody())
      .forRoutes(...API_CONTROLLERS);
    consumer
      .apply(webForm(), WebContextMiddleware)
      .forRoutes(...WEB_CONTROLLERS);
    // sentry-cli's API reads its bodies itself too; its URLs (a project
    // path, a release version) still pass the one hostile-input check.
    consumer
      .apply((req: Request, _res: Response, next: NextFunction) =>
        next(unsafeRequestError(req)),
      )
      .forRoutes(SentryApiController);
  }
}

/** The context's operator commands: users:create, users:set-password, tokens:create, retention:run. */
@Module({})
export class ErrorTrackingCliModule {
  static forRoot(options: ErrorTrackingModuleOptions): DynamicModule {
    return {
      module: ErrorTrackingCliModule,
      imports: [ScheduleModule.forRoot()],
      providers: [
        {
          provide: ERROR_TRACKING_OPTIONS,
          useValue: { ...options, retentionIntervalMinutes: 0 },
        },
        ClientKeyCache,
        ...DOMAIN_PROVIDERS,
        RetentionService,
        CreateUserCommand,
        SetUserPasswordCommand,
        CreateTokenCommand,
        RunRetentionCommand,
      ],
    };
  }
}

/**
 * First-boot work for the gateway: the admin `root` and its token. Returns
 * the generated secrets (to record in DATA_DIR/initial-credentials.json).
 */
export function bootstrapErrorTracking(
  app: INestApplicationContext,
): Promise<Record<string, string> | undefined> {
  return app.get(RootBootstrapService, { strict: false }).run();
}
