import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Sql } from '@quitanda/database';
import type { SqlExecutor } from '@quitanda/database';
import { DataSource } from 'typeorm';

import { ERROR_TRACKING_DATA_SOURCE } from '../common/error-tracking.constants';

/**
 * One open transaction of the context. Services only hand it on: every
 * repository method that can join a transaction takes it as its optional
 * last parameter `tx`.
 */
export type Transaction = SqlExecutor;

/**
 * The context's unit of work: the one place a service gets a transaction
 * spanning several repositories. Repositories keep their connection to
 * themselves, so no service picks one at hand to start a transaction on.
 */
@Injectable()
export class ErrorTrackingDatabase {
  private readonly sql: Sql;

  constructor(
    @InjectDataSource(ERROR_TRACKING_DATA_SOURCE) dataSource: DataSource,
  ) {
    this.sql = new Sql(dataSource);
  }

  /** Runs `work` in one transaction; it rolls back if `work` throws. */
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.sql.transaction(work);
  }
}
