import { request as httpRequest } from 'node:http';

import { fixtureBody } from '@quitanda/testing';
import type { SentryFixture } from '@quitanda/testing';
import { Client } from 'pg';
import request from 'supertest';

import { startTestGateway } from '../support/test-gateway';
import type { TestGateway } from '../support/test-gateway';

/** INITIAL_ROOT_TOKEN of every error-tracking e2e gateway. */
export const ROOT_TOKEN = 'glpat-e2e-root-token-000000000000';

export interface ErrorTrackingGateway extends TestGateway {
  readonly http: ReturnType<typeof request>;
  /** Runs SQL on the gateway's database (test setup and recounts only). */
  query<T = Record<string, unknown>>(
    text: string,
    values?: unknown[],
  ): Promise<T[]>;
}

export async function startErrorTrackingGateway(
  env:
    | Record<string, string>
    | ((databaseUrl: string) => Promise<Record<string, string>>) = {},
): Promise<ErrorTrackingGateway> {
  const gw = await startTestGateway(async (databaseUrl) => ({
    INITIAL_ROOT_TOKEN: ROOT_TOKEN,
    ERROR_TRACKING_RETENTION_INTERVAL_MINUTES: '0',
    ...(typeof env === 'function' ? await env(databaseUrl) : env),
  }));
  const client = new Client({ connectionString: gw.databaseUrl });
  await client.connect();
  return {
    ...gw,
    http: request(gw.url),
    async query<T>(text: string, values: unknown[] = []) {
      return (await client.query(text, values)).rows as T[];
    },
    async close() {
      await client.end();
      await gw.close();
    },
  };
}

let counter = 0;

/** A unique name within this test process. */
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
}

export interface TestUser {
  readonly id: number;
  readonly username: string;
  readonly token: string;
}

/** A user created by root, with a token of the given scopes. */
export async function createUser(
  gw: ErrorTrackingGateway,
  options: { scopes?: string[]; expiresAt?: string; admin?: boolean } = {},
): Promise<TestUser> {
  const username = unique('user');
  const user = await gw.http
    .post('/api/v4/users')
    .set('PRIVATE-TOKEN', ROOT_TOKEN)
    .send({
      username,
      name: username,
      email: `${username}@example.com`,
      password: 'correct horse battery',
      admin: options.admin ?? false,
    })
    .expect(201);
  const token = await gw.http
    .post(`/api/v4/users/${user.body.id}/personal_access_tokens`)
    .set('PRIVATE-TOKEN', ROOT_TOKEN)
    .send({
      name: 'e2e',
      scopes: options.scopes ?? ['api'],
      ...(options.expiresAt ? { expires_at: options.expiresAt } : {}),
    })
    .expect(201);
  return { id: user.body.id, username, token: token.body.token };
}

/** A new user made a member of a project at `accessLevel` (30: developer). */
export async function createMember(
  gw: ErrorTrackingGateway,
  projectId: number,
  accessLevel: number,
): Promise<TestUser> {
  const user = await createUser(gw);
  await gw.http
    .post(`/api/v4/projects/${projectId}/members`)
    .set('PRIVATE-TOKEN', ROOT_TOKEN)
    .send({ user_id: user.id, access_level: accessLevel })
    .expect(201);
  return user;
}

/** A project owned by root with tracking enabled; returns its DSN. */
export async function createTrackedProject(
  gw: ErrorTrackingGateway,
  token = ROOT_TOKEN,
): Promise<{ id: number; dsn: string; publicKey: string }> {
  const project = await gw.http
    .post('/api/v4/projects')
    .set('PRIVATE-TOKEN', token)
    .send({ name: unique('project') })
    .expect(201);
  await gw.http
    .put(`/api/v4/projects/${project.body.id}/error_tracking/settings`)
    .set('PRIVATE-TOKEN', token)
    .send({ active: true, integrated: true })
    .expect(200);
  const keys = await gw.http
    .get(`/api/v4/projects/${project.body.id}/error_tracking/client_keys`)
    .set('PRIVATE-TOKEN', token)
    .expect(200);
  return {
    id: project.body.id,
    dsn: keys.body[0].sentry_dsn,
    publicKey: keys.body[0].public_key,
  };
}

/** Registers the fixtures' project 4242 and key (tracking on), as their README says. */
export async function registerFixtureProject(
  gw: ErrorTrackingGateway,
): Promise<void> {
  await gw.query(
    `INSERT INTO error_tracking.projects (id, name, path, created_at, tracking_active)
     VALUES (4242, 'fixtures', 'fixtures', now(), true)`,
  );
  await gw.query(
    `INSERT INTO error_tracking.client_keys (project_id, public_key, created_at)
     VALUES (4242, 'glet_00000000000000000000000000000000', now())`,
  );
}

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
  json(): Record<string, unknown>;
}

/** Sends bytes exactly as given with node's http module (chunked unless a length is set). */
export function sendRaw(
  baseUrl: string,
  options: {
    method?: string;
    path: string;
    headers?: Record<string, string>;
    body?: Buffer;
    chunked?: boolean;
  },
): Promise<RawResponse> {
  const url = new URL(baseUrl);
  const body = options.body ?? Buffer.alloc(0);
  const headers = { ...options.headers };
  if (!options.chunked) headers['Content-Length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: options.method ?? 'POST',
        path: options.path,
        headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: text,
            json: () => JSON.parse(text) as Record<string, unknown>,
          });
        });
      },
    );
    req.on('error', reject);
    if (options.chunked) {
      req.write(body);
      req.end();
    } else req.end(body);
  });
}

/** Sends one event to the project's `store` endpoint, as an SDK would. */
export function storeEvent(
  gw: ErrorTrackingGateway,
  projectId: number,
  publicKey: string,
  event: Record<string, unknown>,
): Promise<RawResponse> {
  return sendRaw(gw.url, {
    path: `/api/v4/error_tracking/collector/api/${projectId}/store/?sentry_key=${publicKey}`,
    headers: { 'Content-Type': 'application/json' },
    body: Buffer.from(JSON.stringify(event)),
  });
}

/** Replays a captured SDK request byte for byte (fixtures README recipe). */
export function replayFixture(
  baseUrl: string,
  fixture: SentryFixture,
): Promise<RawResponse> {
  return sendRaw(baseUrl, {
    method: fixture.replay.method,
    path: fixture.replay.url,
    headers: fixture.replay.headers,
    body: fixtureBody(fixture),
    chunked: fixture.request.transfer_encoding === 'chunked',
  });
}

/** Each of a project's errors' status, by title (triage specs). */
export async function statusesByTitle(
  gw: ErrorTrackingGateway,
  projectId: number,
): Promise<Record<string, string>> {
  const rows = await gw.query<{ title: string; status: string }>(
    'SELECT title, status FROM error_tracking.errors WHERE project_id = $1',
    [projectId],
  );
  return Object.fromEntries(rows.map((r) => [r.title, r.status]));
}
