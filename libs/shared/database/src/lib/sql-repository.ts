import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

import { Sql } from './sql';

/**
 * What every repository starts from: its own connections to its context's
 * DataSource, kept to itself (subclasses only), so services get
 * transactions from their context's unit of work and nowhere else.
 */
export abstract class SqlRepository {
  /** The primary: writes, and reads that must see them at once. */
  protected readonly sql: Sql;
  /**
   * Reads that tolerate replica lag (`DATABASE_READ_URL`): the replica, or
   * the primary when there is none; a caller still reads its own writes.
   */
  protected readonly replica: Sql;

  protected constructor(dataSource: DataSource) {
    this.sql = new Sql(dataSource);
    this.replica = Sql.replica(dataSource);
  }
}

/**
 * The base of one context's repositories, injected with the DataSource
 * named `dataSource`. Each context declares it once:
 * `export abstract class EventsRepository extends sqlRepository(EVENTS_DATA_SOURCE) {}`.
 */
export function sqlRepository(
  dataSource: string,
): abstract new (dataSource: DataSource) => SqlRepository {
  abstract class ContextRepository extends SqlRepository {
    constructor(@InjectDataSource(dataSource) source: DataSource) {
      super(source);
    }
  }
  return ContextRepository;
}
