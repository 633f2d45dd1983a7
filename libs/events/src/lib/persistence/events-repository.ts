import { sqlRepository } from '@quitanda/database';

import { EVENTS_DATA_SOURCE } from '../common/events.constants';

/** What every repository of events extends: `sql` and `replica`. */
export abstract class EventsRepository extends sqlRepository(
  EVENTS_DATA_SOURCE,
) {}
