import { prepareTemplateDatabase } from '@quitanda/testing';

import { errorTrackingDataSourceOptions } from '../lib/persistence/error-tracking.data-source-options';

export default () =>
  prepareTemplateDatabase('error-tracking', [
    (url) => errorTrackingDataSourceOptions(url),
  ]);
