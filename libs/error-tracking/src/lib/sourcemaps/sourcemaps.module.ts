import { Module, RequestMethod } from '@nestjs/common';
import type { MiddlewareConsumer, NestModule } from '@nestjs/common';
import { unsafeRequestError } from '@quitanda/http';
import type { NextFunction, Request, Response } from 'express';

import { ErrorTrackingCoreModule } from '../error-tracking-core.module';
import { ArtifactsRepository } from './artifacts.repository';
import { SentryApiController } from './sentry-api.controller';
import { SentryApiService } from './sentry-api.service';
import { SourceMapResolver } from './source-map-resolver';

/**
 * Source maps: sentry-cli's uploads (`/api/0/`) and the resolver the
 * collector runs on each event's frames.
 */
@Module({
  imports: [ErrorTrackingCoreModule],
  controllers: [SentryApiController],
  providers: [ArtifactsRepository, SentryApiService, SourceMapResolver],
  exports: [SourceMapResolver],
})
export class SourcemapsModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    // sentry-cli's API reads its bodies itself; its URLs (a project path, a
    // release version) still pass the one hostile-input check.
    consumer
      .apply((req: Request, _res: Response, next: NextFunction) =>
        next(unsafeRequestError(req)),
      )
      .forRoutes({ path: 'api/0/{*rest}', method: RequestMethod.ALL });
  }
}
