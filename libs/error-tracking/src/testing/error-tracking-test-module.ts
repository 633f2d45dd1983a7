import { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';

import { Test } from '@nestjs/testing';
import type { TestingModule } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { getDataSourceToken } from '@nestjs/typeorm';
import { Sql } from '@quitanda/database';
import { CLOCK, FixedClock, METRICS_REGISTRY } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';
import { Registry } from 'prom-client';
import type { DataSource } from 'typeorm';

import {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_ENVELOPE_BYTES,
  DEFAULT_MAX_EVENT_BYTES,
  DEFAULT_MAX_ARTIFACT_BYTES,
  ERROR_TRACKING_DATA_SOURCE,
  ERROR_TRACKING_OPTIONS,
} from '../lib/error-tracking.constants';
import type { ErrorTrackingModuleOptions } from '../lib/error-tracking.options';
import { errorTrackingDataSourceOptions } from '../lib/persistence/error-tracking.data-source-options';

export const TEST_OPTIONS: ErrorTrackingModuleOptions = {
  trustProxy: false,
  retentionDays: 90,
  retentionIntervalMinutes: 0,
  rateLimitPerMinute: 0,
  maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
  maxEnvelopeBytes: DEFAULT_MAX_ENVELOPE_BYTES,
  maxEventBytes: DEFAULT_MAX_EVENT_BYTES,
  maxArtifactBytes: DEFAULT_MAX_ARTIFACT_BYTES,
  sessionMinutes: 10_080,
  signInMaxFailures: 10,
  signInLockSeconds: 900,
};

/**
 * A Nest testing module with the context's DataSource on `url`, a clock,
 * a fresh metrics registry and the given providers.
 */
export async function errorTrackingTestModule(
  url: string,
  providers: unknown[],
  options: Partial<ErrorTrackingModuleOptions> = {},
  clock: Clock = new FixedClock('2026-11-22T10:00:00.000Z'),
): Promise<TestingModule> {
  return Test.createTestingModule({
    imports: [TypeOrmModule.forRoot(errorTrackingDataSourceOptions(url, 4))],
    providers: [
      { provide: CLOCK, useValue: clock },
      { provide: METRICS_REGISTRY, useValue: new Registry() },
      {
        provide: ERROR_TRACKING_OPTIONS,
        useValue: { ...TEST_OPTIONS, ...options },
      },
      ...(providers as never[]),
    ],
  }).compile();
}

export function sqlOf(module: TestingModule): Sql {
  return new Sql(
    module.get<DataSource>(getDataSourceToken(ERROR_TRACKING_DATA_SOURCE)),
  );
}

let nextProjectId = 1000;

/** A project with tracking on and one key; ids unique within the file. */
export async function seedProject(
  sql: Sql,
  options: { id?: number; publicKey?: string; active?: boolean } = {},
): Promise<{ projectId: number; keyId: number; publicKey: string }> {
  const projectId = options.id ?? nextProjectId++;
  const publicKey =
    options.publicKey ??
    `glet_${projectId.toString(16).padStart(8, '0')}${'a'.repeat(24)}`;
  await sql.rows(
    `INSERT INTO error_tracking.projects (id, name, path, created_at, tracking_active)
     VALUES ($1, $2, $2, now(), $3)`,
    [projectId, `project-${projectId}`, options.active ?? true],
  );
  const [key] = await sql.rows<{ id: number }>(
    `INSERT INTO error_tracking.client_keys (project_id, public_key, created_at)
     VALUES ($1, $2, now()) RETURNING id`,
    [projectId, publicKey],
  );
  return { projectId, keyId: (key as { id: number }).id, publicKey };
}

/** A request body stream with headers, as node's http server hands it over. */
export function fakeRequest(
  body: Buffer | string,
  headers: Record<string, string> = {},
): IncomingMessage {
  const stream = Readable.from([
    Buffer.from(body),
  ]) as unknown as IncomingMessage;
  stream.headers = Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]),
  );
  return stream;
}
