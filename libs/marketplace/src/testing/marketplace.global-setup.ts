import { prepareTemplateDatabase } from '@quitanda/testing';

import { marketplaceDataSourceOptions } from '../lib/persistence/marketplace.data-source-options';

export default () =>
  prepareTemplateDatabase('marketplace', [
    (url) => marketplaceDataSourceOptions(url),
  ]);
