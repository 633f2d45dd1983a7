import { Global, Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';

import { ERROR_TRACKING_OPTIONS } from '../common/error-tracking.constants';
import type { ErrorTrackingModuleOptions } from '../common/error-tracking.options';
import { BaseUrl } from '../http/base-url';

/**
 * The context's options, registered once by the root module (the gateway's
 * or the CLI's) and visible to every area module, as the gateway's
 * `PlatformModule` does for the clock: the area modules stay static classes
 * that import each other by name. `BaseUrl` comes with them: the controllers
 * of every area hand out links.
 */
@Global()
@Module({})
export class ErrorTrackingOptionsModule {
  static forRoot(options: ErrorTrackingModuleOptions): DynamicModule {
    return {
      module: ErrorTrackingOptionsModule,
      providers: [
        { provide: ERROR_TRACKING_OPTIONS, useValue: options },
        BaseUrl,
      ],
      exports: [ERROR_TRACKING_OPTIONS, BaseUrl],
    };
  }
}
