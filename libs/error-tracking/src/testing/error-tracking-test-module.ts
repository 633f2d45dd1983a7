import { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';

import type { DynamicModule, ModuleMetadata, Provider } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
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
  DEFAULT_MAX_ATTACHMENT_BYTES,
  DEFAULT_MAX_PROJECT_ATTACHMENT_BYTES,
  DEFAULT_MAX_ARTIFACT_BYTES,
  DEFAULT_MAX_ENVELOPE_ITEMS,
  ERROR_TRACKING_DATA_SOURCE,
} from '../lib/common/error-tracking.constants';
import { ErrorTrackingOptionsModule } from '../lib/core/error-tracking-options.module';
import type { ErrorTrackingModuleOptions } from '../lib/common/error-tracking.options';
import { errorTrackingDataSourceOptions } from '../lib/persistence/error-tracking.data-source-options';

export const TEST_OPTIONS: ErrorTrackingModuleOptions = {
  trustProxy: false,
  retentionDays: 90,
  retentionIntervalMinutes: 0,
  rateLimitPerMinute: 0,
  maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
  maxEnvelopeBytes: DEFAULT_MAX_ENVELOPE_BYTES,
  maxEnvelopeItems: DEFAULT_MAX_ENVELOPE_ITEMS,
  maxEventBytes: DEFAULT_MAX_EVENT_BYTES,
  maxAttachmentBytes: DEFAULT_MAX_ATTACHMENT_BYTES,
  maxProjectAttachmentBytes: DEFAULT_MAX_PROJECT_ATTACHMENT_BYTES,
  maxArtifactBytes: DEFAULT_MAX_ARTIFACT_BYTES,
  sessionMinutes: 10_080,
  signInMaxFailures: 10,
  signInLockSeconds: 900,
};

/** What a spec wires: area modules, and providers of its own. */
export interface TestModuleParts {
  readonly imports?: ModuleMetadata['imports'];
  readonly providers?: Provider[];
}

/**
 * A Nest testing module with the context's DataSource on `url`, and what the
 * gateway and the root module make global (clock, a fresh metrics registry,
 * the scheduler registry, the options) for the given area modules, or just
 * for the given providers.
 */
export async function errorTrackingTestModule(
  url: string,
  parts: TestModuleParts | Provider[],
  options: Partial<ErrorTrackingModuleOptions> = {},
  clock: Clock = new FixedClock('2026-11-22T10:00:00.000Z'),
): Promise<TestingModule> {
  const platform: DynamicModule = {
    module: class ErrorTrackingTestPlatformModule {},
    global: true,
    providers: [
      { provide: CLOCK, useValue: clock },
      { provide: METRICS_REGISTRY, useValue: new Registry() },
      { provide: SchedulerRegistry, useValue: new SchedulerRegistry() },
    ],
    exports: [CLOCK, METRICS_REGISTRY, SchedulerRegistry],
  };
  const { imports = [], providers = [] } = Array.isArray(parts)
    ? { providers: parts }
    : parts;
  return Test.createTestingModule({
    imports: [
      TypeOrmModule.forRoot(errorTrackingDataSourceOptions(url, 4)),
      platform,
      ErrorTrackingOptionsModule.forRoot({ ...TEST_OPTIONS, ...options }),
      ...imports,
    ],
    providers,
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
