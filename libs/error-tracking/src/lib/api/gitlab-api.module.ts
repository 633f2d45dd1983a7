import { Module, RequestMethod } from '@nestjs/common';
import type { MiddlewareConsumer, NestModule } from '@nestjs/common';

import { GitLabUsersController } from './users.controller';
import { AlertRulesController } from './alert-rules.controller';
import { AlertsModule } from '../alerts/alerts.module';
import { HooksController } from './hooks.controller';
import { ErrorTrackingCoreModule } from '../core/error-tracking-core.module';
import { ErrorTagsController } from './error-tags.controller';
import { ErrorTriageController } from './error-triage.controller';
import { ErrorsController } from './errors.controller';
import { IssuesController } from './issues.controller';
import { ProjectsController } from './projects.controller';
import { ReleaseHealthRepository } from '../errors/release-health.repository';
import { ReleaseHealthService } from '../errors/release-health.service';
import { SettingsController } from './settings.controller';
import { apiBody } from '../http/api-body.middleware';
import { gitlabJsonContentType } from '../http/gitlab-json.middleware';

/** Where the routes of `CONTROLLERS` are: the API's namespaces under /api/v4. */
export const GITLAB_API_PATHS = [
  'user',
  'users',
  'personal_access_tokens',
  'projects',
].map((namespace) => `api/v4/${namespace}{/*rest}`);

const CONTROLLERS = [
  GitLabUsersController,
  ProjectsController,
  SettingsController,
  ErrorsController,
  ErrorTagsController,
  ErrorTriageController,
  IssuesController,
  HooksController,
  AlertRulesController,
];

/**
 * GitLab's REST API under `/api/v4` (users, tokens, projects, members,
 * settings, client keys, errors, issues, hooks, alert rules, release
 * health): token auth, GitLab's bodies and content type.
 */
@Module({
  imports: [ErrorTrackingCoreModule, AlertsModule],
  controllers: CONTROLLERS,
  providers: [ReleaseHealthRepository, ReleaseHealthService],
})
export class GitLabApiModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    // By path, not by controller: Nest adds a router layer per route and
    // middleware, and every request of every context walks those layers
    // before it reaches its own handler. (The collector, also under /api/v4,
    // reads its own bodies.)
    consumer.apply(gitlabJsonContentType(), apiBody()).forRoutes(
      ...GITLAB_API_PATHS.map((path) => ({
        path,
        method: RequestMethod.ALL,
      })),
    );
  }
}
