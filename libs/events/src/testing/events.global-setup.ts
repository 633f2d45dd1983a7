import { prepareTemplateDatabase } from '@quitanda/testing';

import { eventsDataSourceOptions } from '../lib/persistence/events.data-source-options';

export default () =>
  prepareTemplateDatabase('events', [(url) => eventsDataSourceOptions(url)]);
