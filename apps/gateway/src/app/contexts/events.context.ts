import {
  EVENTS_DATA_SOURCE,
  EVENTS_SECURITY_SCHEMES,
  EventsModule,
  eventsDataSourceOptions,
  eventsHttpErrorFormat,
} from '@quitanda/events';

import type { ContextEntry } from './context-entry';

export const EVENTS_CONTEXT: ContextEntry = {
  name: 'events',
  dataSourceName: EVENTS_DATA_SOURCE,
  dataSourceOptions: eventsDataSourceOptions,
  migrationsDirectory: 'libs/events/src/lib/persistence/migrations',
  module: (config) =>
    EventsModule.forRoot({ writeToken: config.events.writeToken }),
  errorFormat: eventsHttpErrorFormat,
  securitySchemes: EVENTS_SECURITY_SCHEMES,
};
