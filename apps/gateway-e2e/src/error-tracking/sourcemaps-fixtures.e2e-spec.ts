import {
  FIXTURE_PROJECT_ID,
  defined,
  loadBrowserSourceMapFixture,
  loadSentryCliFlowNames,
} from '@quitanda/testing';
import type { BrowserSourceMapFixture } from '@quitanda/testing';

import {
  ROOT_TOKEN,
  createUser,
  registerFixtureProject,
  sendRaw,
  startErrorTrackingGateway,
} from './error-tracking-support';
import type { ErrorTrackingGateway, TestUser } from './error-tracking-support';
import {
  clearArtifacts,
  originalFrames,
  replayFlow,
} from './sourcemaps-support';

const UPLOAD_FLOWS = loadSentryCliFlowNames().filter(
  (flow) =>
    flow !== '3.8.0-project-refused' && flow !== '3.8.0-same-bundle-again',
);

/** What must match between the recorded answer and ours. */
function comparable(step: string, body: unknown): unknown {
  const value = body as Record<string, unknown>;
  if (step.startsWith('assemble'))
    return { state: value['state'], missingChunks: value['missingChunks'] };
  if (step.startsWith('releases'))
    return {
      version: value['version'],
      projects: (value['projects'] as Array<{ id: number }>).map((p) => p.id),
    };
  // The multi-chunk capture's server advertised other sizes and no compression.
  if (step === 'chunk-upload-options')
    return { hashAlgorithm: value['hashAlgorithm'], accept: value['accept'] };
  return body;
}

function replayBrowser(
  gw: ErrorTrackingGateway,
  fixture: BrowserSourceMapFixture,
) {
  return sendRaw(gw.url, {
    method: fixture.replay.method,
    path: fixture.replay.url,
    headers: fixture.replay.headers,
    body: Buffer.from(fixture.body.raw_base64, 'base64'),
  });
}

describe('sentry-cli source map uploads replayed byte for byte (e2e)', () => {
  let gw: ErrorTrackingGateway;
  let maintainer: TestUser;
  let outsider: TestUser;
  const auth = { 'PRIVATE-TOKEN': ROOT_TOKEN };

  beforeAll(async () => {
    gw = await startErrorTrackingGateway();
    await registerFixtureProject(gw);
    maintainer = await createUser(gw);
    await gw.http
      .post(`/api/v4/projects/${FIXTURE_PROJECT_ID}/members`)
      .set(auth)
      .send({ user_id: maintainer.id, access_level: 40 })
      .expect(201);
    // Maintains a project of its own, not the fixtures' one.
    outsider = await createUser(gw);
    await gw.http
      .post('/api/v4/projects')
      .set('PRIVATE-TOKEN', outsider.token)
      .send({ name: 'outsider-project' })
      .expect(201);
  });

  beforeEach(() => clearArtifacts(gw));

  afterAll(() => gw?.close());

  it.each(UPLOAD_FLOWS)(
    '%s: every exchange gets the recorded status and answer',
    async (flow) => {
      for (const { exchange, response } of await replayFlow(
        gw,
        flow,
        maintainer.token,
      )) {
        expect([exchange.file, response.status]).toEqual([
          exchange.file,
          exchange.response.status,
        ]);
        if (exchange.step === 'chunk-upload') {
          expect(response.body).toBe('');
          continue;
        }
        expect(response.headers['content-type']).toMatch(/^application\/json/);
        expect([
          exchange.file,
          comparable(exchange.step, response.json()),
        ]).toEqual([
          exchange.file,
          comparable(exchange.step, exchange.response.body),
        ]);
      }
      const [bundle] = await gw.query<{
        files: number;
        release: string | null;
      }>(
        `SELECT file_count AS files, release FROM error_tracking.artifact_bundles
          WHERE project_id = $1`,
        [FIXTURE_PROJECT_ID],
      );
      expect(bundle?.files).toBe(2);
      expect(bundle?.release).toBe(flow.includes('legacy') ? '1.0.0' : null);
    },
  );

  it('chunk upload options point sentry-cli at this server', async () => {
    const [first] = await replayFlow(
      gw,
      '3.8.0-debug-id-upload',
      maintainer.token,
    );
    expect(defined(first).response.json()).toMatchObject({
      url: `${gw.url}/api/0/organizations/quitanda/chunk-upload/`,
      chunkSize: 8 * 1024 * 1024,
      maxFileSize: 50 * 1024 * 1024,
      hashAlgorithm: 'sha1',
    });
  });

  it('3.8.0-same-bundle-again: a stored bundle is `ok` at once and nothing is uploaded', async () => {
    await replayFlow(gw, '3.8.0-debug-id-upload', maintainer.token);
    const again = await replayFlow(
      gw,
      '3.8.0-same-bundle-again',
      maintainer.token,
    );
    for (const { exchange, response } of again) {
      expect(response.status).toBe(exchange.response.status);
      if (exchange.step.startsWith('assemble'))
        expect(response.json()).toEqual(exchange.response.body);
    }
    const [count] = await gw.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM error_tracking.artifact_bundles',
    );
    expect(count?.n).toBe(1);
  });

  it("3.8.0-project-refused: a project the token cannot maintain is 404 with Sentry's detail, and nothing is stored", async () => {
    const replies = await replayFlow(
      gw,
      '3.8.0-project-refused',
      outsider.token,
    );
    for (const { exchange, response } of replies) {
      expect(response.status).toBe(exchange.response.status);
      if (exchange.response.status === 404)
        expect(response.json()).toEqual(exchange.response.body);
    }
    // A reporter of the project is refused the same way.
    await gw.http
      .post(`/api/v4/projects/${FIXTURE_PROJECT_ID}/members`)
      .set(auth)
      .send({ user_id: outsider.id, access_level: 20 })
      .expect(201);
    const again = await replayFlow(gw, '3.8.0-project-refused', outsider.token);
    expect(again.map((r) => r.response.status)).toEqual([200, 404]);
    await gw.http
      .delete(`/api/v4/projects/${FIXTURE_PROJECT_ID}/members/${outsider.id}`)
      .set(auth)
      .expect(204);
    const [count] = await gw.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM error_tracking.artifact_bundles',
    );
    expect(count?.n).toBe(0);
  });

  it("answers Sentry's 401 and 404 bodies without a token and on other /api/0 routes", async () => {
    const noToken = await gw.http
      .get('/api/0/organizations/quitanda/chunk-upload/')
      .expect(401);
    expect(noToken.body).toEqual({ detail: 'Invalid token' });
    const other = await gw.http
      .get('/api/0/organizations/quitanda/repos/')
      .set('Authorization', `Bearer ${maintainer.token}`)
      .expect(404);
    expect(other.body).toEqual({
      detail: 'The requested resource does not exist',
    });
  });

  it.each([
    ['001-debug-id.json', '3.8.0-debug-id-upload'],
    ['002-legacy-release.json', '3.8.0-legacy-release'],
  ])(
    '%s: the browser event comes back with its original frames in the API and the issue',
    async (file, flow) => {
      const fixture = loadBrowserSourceMapFixture(file);
      await replayFlow(gw, flow, maintainer.token);
      const response = await replayBrowser(gw, fixture);
      expect(response.status).toBe(200);
      const [row] = await gw.query<{ error_id: string }>(
        `SELECT error_id::text FROM error_tracking.events
          WHERE project_id = $1 AND event_id = $2`,
        [FIXTURE_PROJECT_ID, fixture.expect.event_id],
      );
      const errorId = defined(row).error_id;
      const base = `/api/v4/projects/${FIXTURE_PROJECT_ID}/error_tracking/errors/${errorId}`;

      const trace = await gw.http
        .get(`${base}/stack_trace`)
        .set(auth)
        .expect(200);
      const entries = trace.body.error.stack_trace_entries as Array<
        Record<string, unknown>
      >;
      expect(
        entries.map((e) => [
          e['abs_path'],
          e['lineNo'],
          e['colNo'],
          e['function'],
        ]),
      ).toEqual(originalFrames(fixture));
      const crash = defined(entries[entries.length - 1]);
      expect(crash['source_map']).toEqual({
        filename: fixture.expect.resolved_frames[4]?.minified['filename'],
        function: 'o',
        lineNo: fixture.expect.resolved_frames[4]?.minified['lineno'],
        colNo: 61,
      });
      expect(crash['context']).toContainEqual([
        4,
        '    throw new TypeError(`invalid cart item ${tag}`);',
      ]);

      const event = await gw.http
        .get(`${base}/events/${fixture.expect.event_id}`)
        .set(auth)
        .expect(200);
      const sent = fixture.parsed.event['exception'] as {
        values: Array<{ stacktrace: { frames: unknown[] } }>;
      };
      expect(event.body.exception.values[0].raw_stacktrace.frames).toEqual(
        defined(sent.values[0]).stacktrace.frames,
      );
      expect(event.body.errors).toBeUndefined();

      const detail = await gw.http.get(base).set(auth).expect(200);
      expect(detail.body.culprit).toBe('validateItem(src/validate.js)');
      const issue = await gw.http
        .post(`${base}/issue`)
        .set(auth)
        .expect((r) => expect([200, 201]).toContain(r.status));
      expect(issue.body.description).toContain(
        'validateItem (src/validate.js:4) [source map: o (http://127.0.0.1:38919/static/',
      );
    },
  );

  it('records a missing map on the event and stores it with the frames as sent', async () => {
    const fixture = loadBrowserSourceMapFixture('001-debug-id.json');
    // A debug id nothing was uploaded for (and a fresh event id).
    const raw = Buffer.from(fixture.body.raw_base64, 'base64')
      .toString('utf8')
      .replaceAll(fixture.expect.event_id, 'f'.repeat(32))
      .replaceAll(
        'd627b5fd-d9d0-51b7-a35c-efb8bb13c281',
        '00000000-0000-4000-8000-000000000001',
      );
    const response = await sendRaw(gw.url, {
      method: 'POST',
      path: fixture.replay.url,
      headers: fixture.replay.headers,
      body: Buffer.from(raw),
    });
    expect(response.status).toBe(200);
    const event = await gw.query<{ payload: Record<string, unknown> }>(
      `SELECT payload FROM error_tracking.events WHERE project_id = $1 AND event_id = $2`,
      [FIXTURE_PROJECT_ID, 'f'.repeat(32)],
    );
    const payload = defined(event[0]).payload;
    expect(payload['errors']).toEqual([
      expect.objectContaining({ type: 'js_no_source' }),
    ]);
  });
});
