import { Module, RequestMethod } from '@nestjs/common';
import type {
  DynamicModule,
  MiddlewareConsumer,
  NestModule,
} from '@nestjs/common';
import { jsonBody } from '@quitanda/http';

import { EventRecordsController } from './event-records/event-records.controller';
import { EventRecordsRepository } from './event-records/event-records.repository';
import { EventRecordsService } from './event-records/event-records.service';
import {
  EVENTS_BODY_LIMIT_BYTES,
  EVENTS_OPTIONS,
} from './common/events.constants';
import type { EventsModuleOptions } from './common/events.options';
import { WriteTokenGuard } from './http/write-token.guard';

/**
 * The events context. Expects the gateway to have registered the
 * `EVENTS_DATA_SOURCE` TypeORM connection (see `eventsDataSourceOptions`)
 * and a `CLOCK` provider.
 */
@Module({})
export class EventsModule implements NestModule {
  static forRoot(options: EventsModuleOptions): DynamicModule {
    return {
      module: EventsModule,
      controllers: [EventRecordsController],
      providers: [
        { provide: EVENTS_OPTIONS, useValue: options },
        EventRecordsRepository,
        EventRecordsService,
        WriteTokenGuard,
      ],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(
        jsonBody({
          limitBytes: EVENTS_BODY_LIMIT_BYTES,
          requireJsonContentType: true,
        }),
      )
      .forRoutes({ path: 'events{/*rest}', method: RequestMethod.ALL });
  }
}
