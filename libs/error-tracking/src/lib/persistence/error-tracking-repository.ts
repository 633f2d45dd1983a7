import { sqlRepository } from '@quitanda/database';

import { ERROR_TRACKING_DATA_SOURCE } from '../common/error-tracking.constants';

/** What every repository of error tracking extends: `sql` and `replica`. */
export abstract class ErrorTrackingRepository extends sqlRepository(
  ERROR_TRACKING_DATA_SOURCE,
) {}
