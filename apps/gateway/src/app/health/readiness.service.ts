import { Inject, Injectable } from '@nestjs/common';
import {
  hasReadReplica,
  pendingMigrations,
  poolOf,
  readPoolOf,
} from '@quitanda/database';
import { READINESS_DETAILS } from '@quitanda/kernel';
import type { ReadinessDetails } from '@quitanda/kernel';
import type { DataSource } from 'typeorm';

import { CONTEXT_DATA_SOURCES } from '../contexts/context-data-sources';
import type { NamedDataSource } from '../contexts/context-data-sources';

export interface ContextReadiness {
  database: 'up' | 'down';
  /** The read replica (`DATABASE_READ_URL`), when there is one. */
  replica?: 'up' | 'down';
  migrations: 'applied' | 'pending' | 'unknown';
  pending?: string[];
  error?: string;
}

export interface ReadinessReport {
  status: 'ok' | 'unavailable';
  contexts: Record<string, ContextReadiness>;
  failed?: string[];
  /** What contexts report beside (the collector's `spool`). */
  [detail: string]: unknown;
}

const CHECK_TIMEOUT_MS = 2_000;

function withTimeout<T>(work: Promise<T>): Promise<T> {
  return Promise.race([
    work,
    new Promise<T>((_, reject) =>
      setTimeout(
        () => reject(new Error('timed out')),
        CHECK_TIMEOUT_MS,
      ).unref(),
    ),
  ]);
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `up`/`down` of the context's read replica; undefined without one. */
async function replicaState(
  dataSource: DataSource,
): Promise<'up' | 'down' | undefined> {
  if (!dataSource.isInitialized || !hasReadReplica(dataSource))
    return undefined;
  try {
    await withTimeout(readPoolOf(dataSource).query('SELECT 1'));
    return 'up';
  } catch {
    return 'down';
  }
}

@Injectable()
export class ReadinessService {
  /** Migrations never un-apply at runtime, so a context once found migrated stays so. */
  private readonly migrated = new Set<string>();
  private stopping = false;

  constructor(
    @Inject(CONTEXT_DATA_SOURCES)
    private readonly dataSources: readonly NamedDataSource[],
    @Inject(READINESS_DETAILS) private readonly details: ReadinessDetails,
  ) {}

  /** From a stop signal on, not ready: load balancers take this replica out at once. */
  markStopping(): void {
    this.stopping = true;
  }

  async check(): Promise<ReadinessReport> {
    if (this.stopping)
      return { status: 'unavailable', contexts: {}, failed: ['shutting down'] };
    const contexts: Record<string, ContextReadiness> = {};
    const failed: string[] = [];
    await Promise.all(
      this.dataSources.map(async ({ name, dataSource }) => {
        // Reported, not failed: reads fall back to the primary meanwhile.
        const replica = await replicaState(dataSource);
        const withReplica = (state: ContextReadiness): ContextReadiness =>
          replica ? { ...state, replica } : state;
        try {
          await withTimeout(poolOf(dataSource).query('SELECT 1'));
        } catch (error) {
          contexts[name] = withReplica({
            database: 'down',
            migrations: 'unknown',
            error: message(error),
          });
          failed.push(`${name}: database unreachable`);
          return;
        }
        if (this.migrated.has(name)) {
          contexts[name] = withReplica({
            database: 'up',
            migrations: 'applied',
          });
          return;
        }
        const pending = await withTimeout(pendingMigrations(dataSource)).catch(
          () => undefined,
        );
        if (pending === undefined) {
          contexts[name] = withReplica({
            database: 'up',
            migrations: 'unknown',
          });
          failed.push(`${name}: migrations could not be read`);
        } else if (pending.length > 0) {
          contexts[name] = withReplica({
            database: 'up',
            migrations: 'pending',
            pending,
          });
          failed.push(`${name}: ${pending.length} pending migration(s)`);
        } else {
          this.migrated.add(name);
          contexts[name] = withReplica({
            database: 'up',
            migrations: 'applied',
          });
        }
      }),
    );
    const details = this.details.read();
    return failed.length > 0
      ? { status: 'unavailable', contexts, failed, ...details }
      : { status: 'ok', contexts, ...details };
  }
}
