import {
  Counter,
  Gauge,
  Histogram,
  Registry,
  collectDefaultMetrics,
} from 'prom-client';
import { hasReadReplica, poolOf, readPoolOf } from '@quitanda/database';
import type { DataSource } from 'typeorm';

import { buildInfo } from '../version/build-info';

export interface HttpMetrics {
  readonly registry: Registry;
  readonly requests: Counter<'method' | 'route' | 'status'>;
  readonly duration: Histogram<'method' | 'route' | 'status'>;
}

/** A registry per application (not prom-client's global one), so tests can build many. */
export function createHttpMetrics(): HttpMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: 'quitanda_build_info',
    help: 'Always 1; the labels say which version and commit is running',
    labelNames: ['version', 'commit'],
    registers: [registry],
  }).set(buildInfo(), 1);
  return {
    registry,
    requests: new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests by route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [
        0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
      ],
      registers: [registry],
    }),
  };
}

/** Gauges of each context's connection pool, read at scrape time. */
export function registerPoolMetrics(
  registry: Registry,
  dataSources: ReadonlyArray<{ name: string; dataSource: DataSource }>,
): void {
  const read = (field: 'totalCount' | 'idleCount' | 'waitingCount') =>
    function (this: Gauge<'context'>) {
      for (const { name, dataSource } of dataSources) {
        if (!dataSource.isInitialized) continue;
        this.set({ context: name }, poolOf(dataSource)[field]);
      }
    };
  new Gauge({
    name: 'db_pool_connections',
    help: 'Open database connections per context pool',
    labelNames: ['context'],
    registers: [registry],
    collect: read('totalCount'),
  });
  new Gauge({
    name: 'db_pool_idle_connections',
    help: 'Idle database connections per context pool',
    labelNames: ['context'],
    registers: [registry],
    collect: read('idleCount'),
  });
  new Gauge({
    name: 'db_read_pool_connections',
    help: 'Open connections per context pool to the read replica (DATABASE_READ_URL)',
    labelNames: ['context'],
    registers: [registry],
    collect(this: Gauge<'context'>) {
      for (const { name, dataSource } of dataSources)
        if (dataSource.isInitialized && hasReadReplica(dataSource))
          this.set({ context: name }, readPoolOf(dataSource).totalCount);
    },
  });
  new Gauge({
    name: 'db_pool_waiting_requests',
    help: 'Queries waiting for a connection per context pool',
    labelNames: ['context'],
    registers: [registry],
    collect: read('waitingCount'),
  });
}
