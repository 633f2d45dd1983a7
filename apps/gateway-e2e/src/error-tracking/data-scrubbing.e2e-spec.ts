import { fixtureEvent, loadSentryFixtures } from '@quitanda/testing';

import {
  createTrackedProject,
  createUser,
  startErrorTrackingGateway,
  storeEvent,
} from './error-tracking-support';
import type { ErrorTrackingGateway, TestUser } from './error-tracking-support';

const FILTERED = '[Filtered]';
const SECRETS = [
  'Bearer e2e-bearer-secret',
  'sid=e2e-cookie-secret',
  'e2e-password-secret',
  'e2e-token-secret',
];

/** The Node SDK's recorded event, as an Express app with PII on sends it. */
function nodeEventWithSecrets(eventId: string): Record<string, unknown> {
  const fixture = loadSentryFixtures().find(
    (f) => f.file === 'node-7.38.0/005-exception.json',
  );
  if (!fixture) throw new Error('no node-7.38.0/005-exception.json fixture');
  return {
    ...fixtureEvent(fixture),
    event_id: eventId,
    timestamp: Date.now() / 1000,
    request: {
      method: 'POST',
      url: 'https://shop.example/login',
      headers: {
        Authorization: 'Bearer e2e-bearer-secret',
        Cookie: 'sid=e2e-cookie-secret',
        Accept: 'application/json',
      },
      cookies: { sid: 'e2e-cookie-secret' },
      data: { username: 'ana', password: 'e2e-password-secret' },
    },
    extra: { token: 'e2e-token-secret', attempt: 2 },
  };
}

describe('data scrubbing at ingestion (e2e)', () => {
  let gw: ErrorTrackingGateway;
  let owner: TestUser;
  let reporter: TestUser;
  let project: { id: number; publicKey: string };
  const eventId = 'd5'.repeat(16);
  let sent: Record<string, unknown>;

  beforeAll(async () => {
    gw = await startErrorTrackingGateway();
    owner = await createUser(gw);
    reporter = await createUser(gw);
    project = await createTrackedProject(gw, owner.token);
    await gw.http
      .post(`/api/v4/projects/${project.id}/members`)
      .set('PRIVATE-TOKEN', owner.token)
      .send({ user_id: reporter.id, access_level: 20 })
      .expect(201);
    sent = nodeEventWithSecrets(eventId);
    const res = await storeEvent(gw, project.id, project.publicKey, sent);
    expect(res.status).toBe(200);
  });

  afterAll(() => gw?.close());

  async function stored(): Promise<{
    errorId: string;
    title: string;
    payload: Record<string, unknown>;
  }> {
    const [row] = await gw.query<{
      error_id: string;
      title: string;
      payload: Record<string, unknown>;
    }>(
      `SELECT e.error_id::text AS error_id, r.title, e.payload
         FROM error_tracking.events e
         JOIN error_tracking.errors r ON r.id = e.error_id
        WHERE r.project_id = $1 AND e.event_id = $2`,
      [project.id, eventId],
    );
    if (!row) throw new Error('event not stored');
    return { errorId: row.error_id, title: row.title, payload: row.payload };
  }

  it('stores none of the secrets: the row holds [Filtered] in their place', async () => {
    const { payload, title } = await stored();
    const text = JSON.stringify(payload);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    expect(payload['request']).toMatchObject({
      headers: {
        Authorization: FILTERED,
        Cookie: FILTERED,
        Accept: 'application/json',
      },
      cookies: FILTERED,
      data: { username: 'ana', password: FILTERED },
    });
    expect(payload['extra']).toEqual({ token: FILTERED, attempt: 2 });
    // The title is the SDK's exception, as without scrubbing.
    const [thrown] = (sent['exception'] as { values: Array<{ type: string }> })
      .values;
    expect(title.startsWith(thrown?.type ?? '?')).toBe(true);
  });

  it("returns [Filtered] to a project reporter through GitLab's event API", async () => {
    const { errorId } = await stored();
    const res = await gw.http
      .get(
        `/api/v4/projects/${project.id}/error_tracking/errors/${errorId}/events/${eventId}`,
      )
      .set('PRIVATE-TOKEN', reporter.token)
      .expect(200);
    const text = JSON.stringify(res.body);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    expect(res.body).toMatchObject({
      event_id: eventId,
      request: {
        headers: { Authorization: FILTERED, Cookie: FILTERED },
        data: { password: FILTERED },
      },
      extra: { token: FILTERED },
    });
  });

  it("returns none of the secrets through Sentry's issue event API", async () => {
    const { errorId } = await stored();
    const res = await gw.http
      .get(`/api/0/issues/${errorId}/events/${eventId}/`)
      .set('Authorization', `Bearer ${reporter.token}`)
      .expect(200);
    const text = JSON.stringify(res.body);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    expect(text).toContain(FILTERED);
  });

  it('serves an event stored before scrubbing scrubbed, through both event APIs', async () => {
    const olderId = 'd6'.repeat(16);
    const res = await storeEvent(
      gw,
      project.id,
      project.publicKey,
      nodeEventWithSecrets(olderId),
    );
    expect(res.status).toBe(200);
    // As a row written before scrubbing holds it: the secret in place.
    const [row] = await gw.query<{ error_id: string }>(
      `UPDATE error_tracking.events e
          SET payload = jsonb_set(e.payload, '{extra,token}', '"e2e-token-secret"')
         FROM error_tracking.errors r
        WHERE r.id = e.error_id AND r.project_id = $1 AND e.event_id = $2
        RETURNING e.error_id::text AS error_id`,
      [project.id, olderId],
    );
    if (!row) throw new Error('event not stored');
    const gitlab = await gw.http
      .get(
        `/api/v4/projects/${project.id}/error_tracking/errors/${row.error_id}/events/${olderId}`,
      )
      .set('PRIVATE-TOKEN', reporter.token)
      .expect(200);
    expect(gitlab.body).toMatchObject({ extra: { token: FILTERED } });
    const sentry = await gw.http
      .get(`/api/0/issues/${row.error_id}/events/${olderId}/`)
      .set('Authorization', `Bearer ${reporter.token}`)
      .expect(200);
    expect(JSON.stringify(sentry.body)).not.toContain('e2e-token-secret');
  });
});
