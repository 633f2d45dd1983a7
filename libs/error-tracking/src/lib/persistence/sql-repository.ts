import { InjectDataSource } from '@nestjs/typeorm';
import { Sql } from '@quitanda/database';
import { DataSource } from 'typeorm';

import { ERROR_TRACKING_DATA_SOURCE } from '../common/error-tracking.constants';

/**
 * What every repository of the context starts from: its own connection to
 * the context's DataSource, private to it (subclasses only), so services
 * get transactions from `ErrorTrackingDatabase` and nowhere else.
 */
export abstract class SqlRepository {
  protected readonly sql: Sql;

  constructor(
    @InjectDataSource(ERROR_TRACKING_DATA_SOURCE) dataSource: DataSource,
  ) {
    this.sql = new Sql(dataSource);
  }
}
