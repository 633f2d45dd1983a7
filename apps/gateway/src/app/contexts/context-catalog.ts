import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';

import type { GatewayConfig } from '../config/gateway-config';
import type { ContextEntry } from './context-entry';
import { ERROR_TRACKING_CONTEXT } from './error-tracking.context';
import { EVENTS_CONTEXT } from './events.context';
import { MARKETPLACE_CONTEXT } from './marketplace.context';

export type { ContextEntry } from './context-entry';

/**
 * Every bounded context, one file each (`<name>.context.ts`) so that a
 * process needing one (a CLI command) loads only that one. Adding a context
 * means adding its file and listing it here (see docs/architecture.md,
 * "Adding a context"): the migration generator reads this list too.
 */
export const CONTEXT_CATALOG: readonly ContextEntry[] = [
  MARKETPLACE_CONTEXT,
  EVENTS_CONTEXT,
  ERROR_TRACKING_CONTEXT,
];

/** The catalog entries this process serves (`CONTEXTS`). */
export function activeContexts(config: GatewayConfig): ContextEntry[] {
  return CONTEXT_CATALOG.filter((entry) => config.contexts.has(entry.name));
}

/** Every context's DataSource options, to migrate a database for tests. */
export function migrationTargets(): Array<
  (url: string) => PostgresConnectionOptions
> {
  return CONTEXT_CATALOG.map(
    (entry) => (url: string) => entry.dataSourceOptions(url, 2),
  );
}
