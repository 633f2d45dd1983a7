import type { Provider } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

import type { ContextEntry } from './context-catalog';

export interface NamedDataSource {
  readonly name: string;
  readonly dataSource: DataSource;
}

export const CONTEXT_DATA_SOURCES = 'gateway:context-data-sources';

/** The active contexts' DataSources, for health checks and pool metrics. */
export function contextDataSourcesProvider(
  entries: readonly ContextEntry[],
): Provider {
  return {
    provide: CONTEXT_DATA_SOURCES,
    inject: entries.map((entry) => getDataSourceToken(entry.dataSourceName)),
    useFactory: (...dataSources: DataSource[]): NamedDataSource[] =>
      entries.map((entry, index) => ({
        name: entry.name,
        dataSource: dataSources[index] as DataSource,
      })),
  };
}
