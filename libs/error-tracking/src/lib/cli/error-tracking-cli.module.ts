import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';

import { ErrorTrackingCoreModule } from '../core/error-tracking-core.module';
import { ErrorTrackingOptionsModule } from '../core/error-tracking-options.module';
import type { ErrorTrackingModuleOptions } from '../common/error-tracking.options';
import { RetentionModule } from '../retention/retention.module';
import { RetitleModule } from '../retitle/retitle.module';
import {
  CreateTokenCommand,
  CreateUserCommand,
  RetitleErrorsCommand,
  RunRetentionCommand,
  SetUserPasswordCommand,
} from './error-tracking-cli.commands';
import { RetagEventsCommand } from './retag-events.command';

/**
 * The context's operator commands: users:create, users:set-password,
 * tokens:create, retention:run, errors:retitle, errors:retag.
 */
@Module({})
export class ErrorTrackingCliModule {
  static forRoot(options: ErrorTrackingModuleOptions): DynamicModule {
    return {
      module: ErrorTrackingCliModule,
      imports: [
        // A command runs retention once, never on a schedule.
        ErrorTrackingOptionsModule.forRoot({
          ...options,
          retentionIntervalMinutes: 0,
        }),
        ScheduleModule.forRoot(),
        ErrorTrackingCoreModule,
        RetentionModule,
        RetitleModule,
      ],
      providers: [
        CreateUserCommand,
        SetUserPasswordCommand,
        CreateTokenCommand,
        RunRetentionCommand,
        RetitleErrorsCommand,
        RetagEventsCommand,
      ],
    };
  }
}
