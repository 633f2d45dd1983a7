import { Module, RequestMethod } from '@nestjs/common';
import type { MiddlewareConsumer, NestModule } from '@nestjs/common';
import { noteBodyLimit, unsafeRequestError } from '@quitanda/http';
import type { NextFunction, Request, Response } from 'express';

import { ErrorTrackingCoreModule } from '../core/error-tracking-core.module';
import { SentryApiController } from './sentry-api.controller';
import { MAX_REQUEST_SIZE, SentryApiService } from './sentry-api.service';

/** sentry-cli's chunk upload, with or without the trailing slash. */
const CHUNK_UPLOAD = /\/chunk-upload\/?$/;

/**
 * Source maps: sentry-cli's uploads (`/api/0/`). The artifacts they store
 * and the resolver the collector runs on each event's frames are the
 * domain's (`artifacts/`, provided by the core module).
 */
@Module({
  imports: [ErrorTrackingCoreModule],
  controllers: [SentryApiController],
  providers: [SentryApiService],
})
export class SourcemapsModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    // sentry-cli's API reads its bodies itself; its URLs (a project path, a
    // release version) still pass the one hostile-input check. The chunk
    // upload's limit is noted before the token guard, so that its 401 is
    // heard by a client still writing chunks (the rest read and dropped up
    // to that limit, not 1 MiB).
    consumer
      .apply((req: Request, _res: Response, next: NextFunction) => {
        if (CHUNK_UPLOAD.test(req.path)) noteBodyLimit(req, MAX_REQUEST_SIZE);
        next(unsafeRequestError(req));
      })
      .forRoutes({ path: 'api/0/{*rest}', method: RequestMethod.ALL });
  }
}
