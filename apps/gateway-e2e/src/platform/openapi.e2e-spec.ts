import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import request from 'supertest';

import { startTestGateway } from '../support/test-gateway';
import type { TestGateway } from '../support/test-gateway';

const ROOT = resolve(__dirname, '../../../..');
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

interface Schema {
  $ref?: string;
  type?: string;
  oneOf?: Schema[];
}
interface Response {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: Schema }>;
}
interface Operation {
  tags?: string[];
  parameters?: Array<{ name: string; in: string; schema?: unknown }>;
  security?: Array<Record<string, string[]>>;
  responses: Record<string, Response>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: {
    securitySchemes?: Record<string, Record<string, string>>;
    schemas?: Record<string, unknown>;
  };
}

function operations(doc: Document): Array<[string, Operation]> {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]): [string, Operation] => [
        `${method.toUpperCase()} ${path}`,
        op,
      ]),
  );
}

/** The error body each context answers with, by path. */
function errorSchemaOf(path: string): string {
  // What Sentry SDKs and sentry-cli talk to answers in Sentry's `{"detail"}`.
  if (
    path.startsWith('/api/v4/error_tracking/collector/') ||
    path.startsWith('/api/0/')
  )
    return 'SentryErrorDto';
  if (path.startsWith('/api/v4/')) return 'GitLabErrorDto';
  // kinvey-cli's management API: Kinvey's `{code, description, debug}`.
  if (path.startsWith('/manage/')) return 'KinveyManageErrorDto';
  if (path.startsWith('/events')) return 'ProblemDto';
  return 'KinveyErrorDto';
}

function lint(file: string): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [
        require.resolve('@redocly/cli/bin/cli.js'),
        'lint',
        '--config',
        join(ROOT, 'redocly.yaml'),
        '--format',
        'stylish',
        '--max-problems',
        '500',
        file,
      ],
      {
        cwd: ROOT,
        timeout: 120_000,
        // Offline and quiet: no telemetry, no update check.
        env: {
          PATH: process.env['PATH'] ?? '',
          HOME: process.env['HOME'] ?? tmpdir(),
          REDOCLY_TELEMETRY: 'off',
          REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
          CI: 'true',
        },
      },
      (error, stdout, stderr) =>
        done({
          code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
          output: `${stdout}${stderr}`,
        }),
    );
  });
}

/**
 * `/openapi.json` is a valid OpenAPI 3 document for its generated clients:
 * Redocly's linter (structure, security references, 2xx and 4xx on every
 * operation), plus the contract's own rules Redocly does not know.
 */
describe('OpenAPI document (e2e)', () => {
  let gw: TestGateway;
  let doc: Document;
  let dir: string;

  beforeAll(async () => {
    gw = await startTestGateway();
    doc = (await request(gw.url).get('/openapi.json').expect(200))
      .body as Document;
    dir = await mkdtemp(join(tmpdir(), 'quitanda-openapi-'));
  });

  afterAll(async () => {
    await gw?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('passes redocly lint with no error and no warning', async () => {
    const file = join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(doc));
    const result = await lint(file);
    if (result.code !== 0)
      throw new Error(`redocly lint failed:\n${result.output}`);
    // Problems only: Redocly's own Node.js notice mentions "warning" too.
    expect(result.output).not.toMatch(/^\s*\d+:\d+\s+warning\s/m);
    expect(result.output).toMatch(/valid/);
  }, 120_000);

  it('declares every scheme an operation requires: bearer, PRIVATE-TOKEN, private_token, Basic, Kinvey, Sentry key', () => {
    const schemes = doc.components.securitySchemes ?? {};
    for (const [name, op] of operations(doc))
      for (const requirement of op.security ?? [])
        for (const scheme of Object.keys(requirement))
          expect([name, scheme, scheme in schemes]).toEqual([
            name,
            scheme,
            true,
          ]);
    const declared = Object.values(schemes);
    expect(declared).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'http', scheme: 'bearer' }),
        expect.objectContaining({
          type: 'apiKey',
          in: 'header',
          name: 'PRIVATE-TOKEN',
        }),
        expect.objectContaining({
          type: 'apiKey',
          in: 'query',
          name: 'private_token',
        }),
        expect.objectContaining({ type: 'http', scheme: 'basic' }),
        expect.objectContaining({ type: 'http', scheme: 'kinvey' }),
        expect.objectContaining({
          type: 'apiKey',
          in: 'query',
          name: 'sentry_key',
        }),
        expect.objectContaining({
          type: 'apiKey',
          in: 'header',
          name: 'X-Sentry-Auth',
        }),
      ]),
    );
  });

  it("documents every operation's success body and its errors in the context's error body", () => {
    const problems: string[] = [];
    for (const [name, op] of operations(doc)) {
      const path = name.split(' ')[1] as string;
      const statuses = Object.keys(op.responses);
      const success = statuses.filter((s) => /^2/.test(s));
      if (success.length === 0) problems.push(`${name}: no 2xx`);
      for (const status of success) {
        const content = op.responses[status]?.content;
        const bodyless =
          status === '204' || name.startsWith('OPTIONS ') || !content;
        if (!bodyless && !Object.values(content).every((c) => c.schema))
          problems.push(`${name}: ${status} without a body schema`);
        if (
          !bodyless &&
          status !== '204' &&
          content['application/json'] === undefined &&
          !op.tags?.includes('operations') &&
          !name.includes('/_download/')
        )
          problems.push(`${name}: ${status} is not JSON`);
        if (
          !content &&
          status !== '204' &&
          !name.startsWith('OPTIONS ') &&
          !op.tags?.includes('operations')
        )
          problems.push(`${name}: ${status} has no body`);
      }
      // Health probes and metrics answer 200 or 503 and nothing else.
      if (op.tags?.includes('operations')) continue;
      if (name.startsWith('OPTIONS ')) continue;
      const errors = statuses.filter((s) => /^[45]/.test(s));
      if (errors.length === 0) problems.push(`${name}: no error response`);
      const wanted = `#/components/schemas/${errorSchemaOf(path)}`;
      for (const status of errors) {
        const content = op.responses[status]?.content;
        if (!content) continue; // documented as bodiless (416)
        for (const [type, media] of Object.entries(content))
          if (media.schema?.$ref !== wanted)
            problems.push(`${name}: ${status} ${type} is not ${wanted}`);
      }
      for (const status of ['429', '503'])
        if (
          op.responses[status] &&
          !op.responses[status]?.headers?.['Retry-After'] &&
          !path.startsWith('/appdata') &&
          !path.startsWith('/user') &&
          !path.startsWith('/blob') &&
          !path.startsWith('/rpc')
        )
          problems.push(`${name}: ${status} without Retry-After`);
    }
    expect(problems).toEqual([]);
  });

  it("documents a file download's bytes and the hook test's one trigger", () => {
    const download = doc.paths['/blob/{appKey}/_download/{id}']?.['get'];
    for (const status of ['200', '206'])
      expect(download?.responses[status]?.content).toEqual({
        'application/octet-stream': {
          schema: { type: 'string', format: 'binary' },
        },
      });
    const test =
      doc.paths['/api/v4/projects/{id}/hooks/{hook_id}/test/{trigger}']?.[
        'post'
      ];
    expect(
      test?.parameters?.find((parameter) => parameter.name === 'trigger'),
    ).toMatchObject({ in: 'path', schema: { enum: ['error_tracking'] } });
  });

  it('documents pagination and rate-limit headers where they apply', () => {
    const headers = (name: string, status = '200') => {
      const [method, path] = name.split(' ') as [string, string];
      return Object.keys(
        doc.paths[path]?.[method.toLowerCase()]?.responses[status]?.headers ??
          {},
      );
    };
    const offset = [
      'X-Total',
      'X-Total-Pages',
      'X-Page',
      'X-Per-Page',
      'X-Next-Page',
      'X-Prev-Page',
      'Link',
    ];
    for (const list of [
      'GET /api/v4/users',
      'GET /api/v4/projects',
      'GET /api/v4/projects/{id}/members',
      'GET /api/v4/projects/{id}/issues',
      'GET /api/v4/projects/{id}/error_tracking/client_keys',
    ])
      expect([list, headers(list)]).toEqual([
        list,
        expect.arrayContaining(offset),
      ]);
    for (const list of [
      'GET /api/v4/projects/{id}/error_tracking/errors',
      'GET /api/v4/projects/{id}/error_tracking/errors/{error_id}/events',
      'GET /events',
    ])
      expect([list, headers(list)]).toEqual([list, ['Link']]);
    expect(headers('POST /user/{appKey}/login', '429')).toEqual([
      'Retry-After',
    ]);
    for (const ingest of [
      'POST /api/v4/error_tracking/collector/api/{projectId}/envelope',
      'POST /api/v4/error_tracking/collector/api/{projectId}/store',
    ]) {
      expect(headers(ingest, '429')).toEqual(
        expect.arrayContaining(['Retry-After', 'X-Sentry-Rate-Limits']),
      );
      expect(headers(ingest, '503')).toEqual(['Retry-After']);
    }
  });
});
