import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { loadConfig, startGateway } from '@quitanda/gateway';

import { baseline, quitanda } from '../lib/targets';
import type { Target, Workload } from '../lib/types';
import {
  SAMPLE_EVENTS,
  copyEvents,
  webPagesAccess,
} from './error-tracking.seed';
import type { StoredEvent } from './error-tracking.seed';

const FIXTURES = join(__dirname, '../../libs/shared/testing/fixtures/sentry');
const ROOT_TOKEN = 'glpat-bench-root-token-000000000000';
/** The bench measures throughput: the per-key rate limit would cap it. */
const UNLIMITED = { ERROR_TRACKING_RATE_LIMIT_PER_MINUTE: '0' };
const DISTINCT_ERRORS = 100;

interface Fixture {
  body: { text: string };
  expect: { events: Array<{ event_id: string }> };
}

function fixture(file: string): Fixture {
  return JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as Fixture;
}

export interface TrackedProject {
  readonly projectId: number;
  readonly key: string;
  readonly errorIds: readonly string[];
}

/**
 * A project with tracking enabled, set up through the public API of a
 * gateway booted in-process on the benchmark database.
 */
async function setUpProject(
  databaseUrl: string,
  seed?: (
    url: string,
    project: { projectId: number; key: string },
  ) => Promise<void>,
): Promise<TrackedProject> {
  const dataDir = mkdtempSync(join(tmpdir(), 'quitanda-bench-'));
  const gateway = await startGateway(
    loadConfig({
      DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
      PORT: '0',
      MIGRATIONS: 'off',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      INITIAL_ROOT_TOKEN: ROOT_TOKEN,
      ...UNLIMITED,
    }),
  );
  try {
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${gateway.url}/api/v4${path}`, {
        method,
        headers: {
          'PRIVATE-TOKEN': ROOT_TOKEN,
          'Content-Type': 'application/json',
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!res.ok)
        throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<Record<string, unknown>>;
    };
    const name = `bench-${randomBytes(3).toString('hex')}`;
    const project = await api('POST', '/projects', { name, path: name });
    const projectId = project['id'] as number;
    await api('PUT', `/projects/${projectId}/error_tracking/settings`, {
      active: true,
      integrated: true,
    });
    const keys = (await api(
      'GET',
      `/projects/${projectId}/error_tracking/client_keys`,
    )) as unknown as Array<{ public_key: string }>;
    const key = keys[0]?.public_key as string;
    await seed?.(gateway.url, { projectId, key });
    const errors = (await api(
      'GET',
      `/projects/${projectId}/error_tracking/errors?per_page=100&status=unresolved`,
    )) as unknown as Array<{ id: string }>;
    return { projectId, key, errorIds: errors.map((e) => e.id) };
  } finally {
    await gateway.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Fresh payloads built from a real SDK's capture: new event ids, and the
 * exception type `type` rewritten into ~100 distinct errors.
 */
/** `text` compressed by the zstd CLI at its default level (Node 20 has no zstd). */
function zstdCli(text: string): Buffer {
  return execFileSync('zstd', ['-3', '-q', '-c'], { input: text });
}

/** `text` (under 128 KiB) as a zstd frame of one raw block. */
function zstdRaw(text: string): Buffer {
  const bytes = Buffer.from(text);
  const block = (bytes.length << 3) | 1;
  return Buffer.concat([
    // Magic, no content size, a 128 KiB window.
    Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38]),
    Buffer.from([block & 0xff, (block >> 8) & 0xff, block >> 16]),
    bytes,
  ]);
}

class PayloadFactory {
  private readonly text: string;
  private readonly oldId: string;
  private n = 0;
  /** The text between the ids and the type, compressed once. */
  private zstdParts?: Buffer[];

  constructor(
    project: { projectId: number; key: string },
    fixturePath: string,
    private readonly type: string,
  ) {
    const fx = fixture(fixturePath);
    this.text = fx.body.text
      .replace(/PUBLIC_KEY/g, project.key)
      .replace(/PROJECT_ID/g, String(project.projectId));
    this.oldId = fx.expect.events[0]?.event_id as string;
  }

  next(): string {
    const id = randomBytes(16).toString('hex');
    const variant = this.n++ % DISTINCT_ERRORS;
    return this.text
      .split(this.oldId)
      .join(id)
      .replace(`"type":"${this.type}"`, `"type":"${this.type}${variant}"`);
  }

  /**
   * `next()` as zstd frames: the parts that never change compressed once by
   * the zstd CLI, the fresh id and the type between them in raw frames (a
   * zstd body may be several frames, decoded one after the other).
   */
  nextZstd(): Buffer {
    const text = this.next();
    const marker = /[0-9a-f]{32}|"type":"[^"]*"/g;
    const fixed = text.split(marker);
    const varying = text.match(marker) ?? [];
    this.zstdParts ??= fixed.map(zstdCli);
    const frames: Buffer[] = [];
    this.zstdParts.forEach((part, i) => {
      frames.push(part);
      const hole = varying[i];
      if (hole !== undefined) frames.push(zstdRaw(hole));
    });
    return Buffer.concat(frames);
  }
}

function collectorTargets(databaseUrl: string): Target[] {
  return [
    quitanda(databaseUrl, { CONTEXTS: 'error-tracking', ...UNLIMITED }),
    baseline(
      'bare node:http + pg, group commit',
      'ingest-bare.js',
      databaseUrl,
    ),
  ];
}

type Mode = 'plain' | 'gzip' | 'zstd' | 'mixed' | 'store';

/** Alerts on: a `frequent` rule (counted on every flush) and a webhook. */
async function enableAlerts(
  url: string,
  project: { projectId: number },
): Promise<void> {
  const api = async (method: string, path: string, body: unknown) => {
    const res = await fetch(
      `${url}/api/v4/projects/${project.projectId}${path}`,
      {
        method,
        headers: {
          'PRIVATE-TOKEN': ROOT_TOKEN,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify(body),
      },
    );
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status}`);
  };
  await api('PUT', '/error_tracking/alerts', {
    frequent_threshold: 1_000_000,
    frequent_window_minutes: 60,
  });
  await api('POST', '/hooks', { url: 'https://hooks.example.com/quitanda' });
}

function ingest(
  databaseUrl: string,
  mode: Mode,
  name: string,
  description: string,
  alerts = false,
): Workload {
  return {
    name,
    description,
    // Contract: never below the last measured share of the group-commit
    // ceiling (0.34-0.46x on 2026-11-26). That server cannot decode zstd
    // (Node 20 has none) and fails those bodies at once: zstd is measured
    // against no ceiling, and compared with the plain envelope's rate.
    ...(mode === 'zstd'
      ? { targets: collectorTargets(databaseUrl).slice(0, 1) }
      : { target: { minRatio: 0.34 }, targets: collectorTargets(databaseUrl) }),
    prepare: () => setUpProject(databaseUrl, alerts ? enableAlerts : undefined),
    requests(_url, prepared) {
      const project = prepared as TrackedProject;
      const envelopes = new PayloadFactory(
        project,
        'node-11.12.0/002-exception.json',
        'Error',
      );
      const stores = new PayloadFactory(
        project,
        'go-0.11.0/001-exception.json',
        '*errors.errorString',
      );
      const envelopePath = `/api/v4/error_tracking/collector/api/${project.projectId}/envelope/?sentry_version=7&sentry_key=${project.key}&sentry_client=sentry.javascript.node%2F11.12.0`;
      const storePath = `/api/v4/error_tracking/collector/api/${project.projectId}/store/`;
      const storeAuth = `Sentry sentry_version=7, sentry_client=sentry.go/0.11.0, sentry_key=${project.key}`;
      return {
        requests: [
          {
            method: 'POST',
            setupRequest: (request) => {
              if (mode === 'store') {
                return {
                  ...request,
                  path: storePath,
                  headers: {
                    'content-type': 'application/json',
                    'x-sentry-auth': storeAuth,
                  },
                  body: stores.next(),
                };
              }
              if (mode === 'zstd') {
                return {
                  ...request,
                  path: envelopePath,
                  headers: { 'content-encoding': 'zstd' },
                  body: envelopes.nextZstd() as unknown as string,
                };
              }
              const gzip =
                mode === 'gzip' || (mode === 'mixed' && Math.random() < 0.1);
              return gzip
                ? {
                    ...request,
                    path: envelopePath,
                    headers: { 'content-encoding': 'gzip' },
                    body: gzipSync(envelopes.next()) as unknown as string,
                  }
                : {
                    ...request,
                    path: envelopePath,
                    headers: {},
                    body: envelopes.next(),
                  };
            },
          },
        ],
      };
    },
  };
}

export const ingestEnvelope = (db: string) =>
  ingest(
    db,
    'plain',
    'ingest: envelope',
    'node 11 exception envelope (4.8 KB), fresh ids, 100 distinct errors',
  );
export const ingestEnvelopeAlerts = (db: string) =>
  ingest(
    db,
    'plain',
    'ingest: envelope, alerts on',
    'the same, with a frequent rule and a webhook on the project (new errors alert)',
    true,
  );
export const ingestGzip = (db: string) =>
  ingest(
    db,
    'gzip',
    'ingest: gzip envelope',
    'the same envelope gzip-compressed',
  );
export const ingestZstd = (db: string) =>
  ingest(
    db,
    'zstd',
    'ingest: zstd envelope',
    'the same envelope zstd-compressed (zstd -3 of its fixed parts, raw frames for the fresh id and type)',
  );
export const ingestStore = (db: string) =>
  ingest(
    db,
    'store',
    'ingest: store',
    'go 0.11 exception to the store endpoint, fresh ids, 100 distinct errors',
  );
export const ingestMixed = (db: string) =>
  ingest(
    db,
    'mixed',
    'ingest: mixed',
    'envelopes, 10% gzip, fresh ids, 100 distinct errors',
  );

/**
 * Seeds `events` events through the collector itself: envelopes of 250 small
 * events each, spread over the last 24 hours, 100 distinct errors.
 */
async function seedEvents(
  url: string,
  project: { projectId: number; key: string },
  events: number,
) {
  const perEnvelope = 250;
  const now = Date.now();
  const path = `${url}/api/v4/error_tracking/collector/api/${project.projectId}/envelope/?sentry_key=${project.key}`;
  let sent = 0;
  const worker = async () => {
    while (sent < events) {
      const count = Math.min(perEnvelope, events - sent);
      sent += count;
      const lines = ['{}'];
      for (let i = 0; i < count; i++) {
        const variant = (sent + i) % DISTINCT_ERRORS;
        lines.push(
          '{"type":"event"}',
          JSON.stringify({
            event_id: randomBytes(16).toString('hex'),
            timestamp: (now - Math.floor(Math.random() * 86_400_000)) / 1000,
            level: 'error',
            platform: 'node',
            release: '1.2.3',
            environment: 'production',
            user: { id: `user-${(sent + i) % 500}` },
            // Tag values for the tag searches and the tags panel: a shard
            // of ten, two browsers.
            tags: { shard: `s${(sent + i) % 10}` },
            contexts: {
              browser:
                (sent + i) % 3 === 0
                  ? { name: 'Firefox', version: '121.0' }
                  : { name: 'Chrome', version: '120.0' },
            },
            exception: {
              values: [
                {
                  type: `SeedError${variant}`,
                  value: `seeded failure ${variant}`,
                  stacktrace: {
                    frames: [
                      {
                        filename: '/srv/app/main.js',
                        function: 'main',
                        lineno: 1,
                        in_app: true,
                      },
                      {
                        filename: '/srv/app/work.js',
                        function: `work${variant}`,
                        lineno: 42,
                        in_app: true,
                      },
                    ],
                  },
                },
              ],
            },
          }),
        );
      }
      const res = await fetch(path, { method: 'POST', body: lines.join('\n') });
      if (!res.ok)
        throw new Error(`seeding: ${res.status} ${await res.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

/** Both read workloads share one seeded project per benchmark database. */
const seeded = new Map<string, Promise<TrackedProject>>();

function seededProject(
  databaseUrl: string,
  events: number,
): Promise<TrackedProject> {
  const key = `${databaseUrl}#${events}`;
  let project = seeded.get(key);
  if (!project) {
    project = setUpProject(databaseUrl, async (url, p) => {
      // The collector writes a sample; SQL copies it (seconds, not the
      // collector's minutes for millions of events).
      await seedEvents(url, p, Math.min(events, SAMPLE_EVENTS));
      if (events > SAMPLE_EVENTS)
        await copyEvents(databaseUrl, p.projectId, events);
    });
    seeded.set(key, project);
  }
  return project;
}

function readWorkload(
  databaseUrl: string,
  name: string,
  description: string,
  path: (project: TrackedProject) => string,
): Workload {
  return {
    name,
    description,
    target: { maxP99Ms: 50 },
    connections: 4,
    targets: [
      quitanda(databaseUrl, { CONTEXTS: 'error-tracking', ...UNLIMITED }),
    ],
    prepare: () => seededProject(databaseUrl, 1_000_000),
    requests(_url, prepared) {
      const project = prepared as TrackedProject;
      return {
        requests: [
          {
            method: 'GET',
            headers: { 'private-token': ROOT_TOKEN },
            setupRequest: (request) => ({ ...request, path: path(project) }),
          },
        ],
      };
    },
  };
}

export const errorsList = (db: string) =>
  readWorkload(
    db,
    'errors: list, 1,000,000 events',
    'GET the unresolved errors, first page, sorted by last seen',
    (p) => `/api/v4/projects/${p.projectId}/error_tracking/errors?per_page=20`,
  );

export const errorsListByTag = (db: string) =>
  readWorkload(
    db,
    'errors: list by tags, 1,000,000 events',
    'GET the unresolved errors whose events carry a tag value and not another (Sentry search), first page',
    (p) =>
      `/api/v4/projects/${p.projectId}/error_tracking/errors?per_page=20&query=${encodeURIComponent('shard:s3 browser.name:Chrome !environment:staging')}`,
  );

export const errorsTags = (db: string) =>
  readWorkload(
    db,
    'errors: tags, 1,000,000 events',
    "GET one error's tag distribution (random among 100)",
    (p) =>
      `/api/v4/projects/${p.projectId}/error_tracking/errors/${p.errorIds[Math.floor(Math.random() * p.errorIds.length)]}/tags`,
  );

export const errorsDetail = (db: string) =>
  readWorkload(
    db,
    'errors: detail, 1,000,000 events',
    'GET one error (random among 100) with its 24-hour frequency',
    (p) =>
      `/api/v4/projects/${p.projectId}/error_tracking/errors/${p.errorIds[Math.floor(Math.random() * p.errorIds.length)]}`,
  );

/**
 * A web page of the seeded project, read by root through a session cookie
 * (issue #36: error list and event page under 100 ms p99 at 1,000,000
 * events).
 */
function webPageWorkload(
  databaseUrl: string,
  name: string,
  description: string,
  path: (project: TrackedProject, event: StoredEvent) => string,
): Workload {
  return {
    ...readWorkload(databaseUrl, name, description, () => ''),
    target: { maxP99Ms: 100 },
    async prepare() {
      const project = await seededProject(databaseUrl, 1_000_000);
      const access = await webPagesAccess(databaseUrl, project.projectId, 500);
      return { project, ...access };
    },
    requests(_url, prepared) {
      const { project, cookie, events } = prepared as {
        project: TrackedProject;
        cookie: string;
        events: StoredEvent[];
      };
      return {
        requests: [
          {
            method: 'GET',
            headers: { cookie },
            setupRequest: (request) => ({
              ...request,
              path: path(
                project,
                events[
                  Math.floor(Math.random() * events.length)
                ] as StoredEvent,
              ),
            }),
          },
        ],
      };
    },
  };
}

export const errorsWebList = (db: string) =>
  webPageWorkload(
    db,
    'errors: web error list, 1,000,000 events',
    'GET the error list page (unresolved, sorted by last seen), signed in',
    (p) => `/projects/${p.projectId}/error_tracking`,
  );

export const errorsWebEvent = (db: string) =>
  webPageWorkload(
    db,
    'errors: web event page, 1,000,000 events',
    "GET one event's page (random among 500 sampled) with its neighbours, signed in",
    (p, e) =>
      `/projects/${p.projectId}/error_tracking/${e.errorId}/events/${e.eventId}`,
  );

/**
 * The plain-envelope workload again, once the events table holds 5,000,000
 * rows (contract: throughput within 25% of the empty-table figure).
 */
export function ingestEnvelopeLargeTable(db: string): Workload {
  const base = ingest(
    db,
    'plain',
    'ingest: envelope, 5,000,000 events stored',
    'as "ingest: envelope", with 5,000,000 events stored (1,000 through the collector, the rest copied by SQL)',
  );
  return {
    ...base,
    target: { maxP99Ms: 50 },
    reference: { workload: 'ingest: envelope', minRatio: 0.75 },
    targets: base.targets.slice(0, 1),
    prepare: async () => {
      const project = await seededProject(db, 5_000_000);
      return project;
    },
  };
}
