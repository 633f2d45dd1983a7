import { Client } from 'pg';
import request from 'supertest';

import {
  createTrackedProject,
  ROOT_TOKEN,
  sendRaw,
} from '../error-tracking/error-tracking-support';
import {
  APP_AUTH,
  APP_KEY,
  basic,
  MARKETPLACE_ENV,
  MASTER_AUTH,
} from '../marketplace/marketplace-support';
import { startTestGateway } from '../support/test-gateway';
import type { TestGateway } from '../support/test-gateway';

/** JSON text nested `depth` levels deep (built as text: no recursion). */
function deepJson(depth: number, leaf = '1'): string {
  return '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);
}

const NUL_TITLE = { title: 'a\u0000b' };

/**
 * Hostile input never gets a 5xx (contract, "Reliability"): a NUL in any
 * JSON string, path segment, query or credential gets the owning context's
 * 400/401/403 and stores nothing; JSON nested past the limit gets a 400;
 * Sentry payloads have NULs stripped and deep values cut, and are kept.
 */
describe('hostile input (e2e)', () => {
  let gw: TestGateway;
  let http: ReturnType<typeof request>;
  let db: Client;
  let userAuth: string;
  let eventId: string;
  let project: { id: number; publicKey: string };

  const count = async (table: string) =>
    Number(
      (await db.query(`SELECT count(*) AS n FROM ${table}`)).rows[0]
        .n as string,
    );

  beforeAll(async () => {
    gw = await startTestGateway({
      ...MARKETPLACE_ENV,
      INITIAL_ROOT_TOKEN: ROOT_TOKEN,
      ERROR_TRACKING_RETENTION_INTERVAL_MINUTES: '0',
    });
    http = request(gw.url);
    db = new Client({ connectionString: gw.databaseUrl });
    await db.connect();
    const user = await http
      .post(`/user/${APP_KEY}`)
      .set('Authorization', APP_AUTH)
      .send({ username: 'hostile', password: 'correct horse battery' })
      .expect(201);
    userAuth = `Kinvey ${user.body._kmd.authtoken as string}`;
    eventId = (await http.post('/events').send({ title: 'ok' }).expect(201))
      .body.id as string;
    project = await createTrackedProject({
      ...gw,
      http,
      query: async (text, values) => (await db.query(text, values)).rows,
    });
  });

  afterAll(async () => {
    await db?.end();
    await gw?.close();
  });

  describe('a NUL character', () => {
    it('events: 400 problem+json on POST, PATCH, PUT and in the path; nothing stored', async () => {
      const before = await count('events.events');
      for (const res of [
        await http.post('/events').send(NUL_TITLE),
        await http.patch(`/events/${eventId}`).send(NUL_TITLE),
        await http.put(`/events/${eventId}`).send(NUL_TITLE),
        await http.get('/events/%00'),
        await http.get('/events?title=%00'),
      ]) {
        expect(res.status).toBe(400);
        expect(res.headers['content-type']).toMatch(
          /application\/problem\+json/,
        );
      }
      expect(await count('events.events')).toBe(before);
      const kept = await http.get(`/events/${eventId}`).expect(200);
      expect(kept.body.title).toBe('ok');
    });

    it('marketplace: Kinvey 400 in bodies, paths and queries, 401 in credentials', async () => {
      const kinvey400 = [
        await http
          .post(`/user/${APP_KEY}/login`)
          .set('Authorization', APP_AUTH)
          .send({ username: 'a\u0000', password: 'x' }),
        await http
          .post(`/rpc/${APP_KEY}/check-username-exists`)
          .set('Authorization', APP_AUTH)
          .send({ username: 'a\u0000' }),
        await http
          .post(`/rpc/${APP_KEY}/custom/match`)
          .set('Authorization', userAuth)
          .send({ id_producer: 'x\u0000' }),
        await http
          .post(`/appdata/${APP_KEY}/assortment`)
          .set('Authorization', userAuth)
          .send({ id_producer: 'p\u0000' }),
        await http
          .post(`/blob/${APP_KEY}`)
          .set('Authorization', userAuth)
          .send({ _filename: 'f\u0000.png', size: 1, mimeType: 'image/png' }),
        // A lone surrogate: not Unicode text (jsonb and jsonpath refuse it).
        await http
          .post(`/blob/${APP_KEY}`)
          .set('Authorization', userAuth)
          .send({ _filename: 'f.png', size: 1, mimeType: 'image/\ud800' }),
        await http
          .post(`/user/${APP_KEY}/_lookup`)
          .set('Authorization', MASTER_AUTH)
          .send({ '\udbff': 'x' }),
        await http
          .put(`/appdata/${APP_KEY}/product/%00`)
          .set('Authorization', MASTER_AUTH)
          .send({ name: 'x' }),
        await http
          .get(`/appdata/${APP_KEY}/product`)
          .query({ query: JSON.stringify({ name: 'a\u0000' }) })
          .set('Authorization', MASTER_AUTH),
      ];
      for (const res of kinvey400) {
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          error: expect.any(String),
          description: expect.any(String),
          debug: expect.any(String),
        });
      }
      const login = await http
        .get(`/appdata/${APP_KEY}/product`)
        .set('Authorization', basic(APP_KEY, `${'x'.repeat(8)}\u0000`));
      expect(login.status).toBe(401);
      expect(await count('marketplace.records')).toBe(0);
    });

    it('error tracking: GitLab 400 for API bodies and paths, 403 for a collector key', async () => {
      for (const res of [
        await http
          .post(`/api/v4/projects/${project.id}/issues`)
          .set('PRIVATE-TOKEN', ROOT_TOKEN)
          .send({ title: 'a\u0000b' }),
        await http
          .post(`/api/v4/projects/${project.id}/issues`)
          .set('PRIVATE-TOKEN', ROOT_TOKEN)
          .type('form')
          .send('title=a%00b'),
        await http
          .get(`/api/v4/projects/${project.id}/issues?search=%00`)
          .set('PRIVATE-TOKEN', ROOT_TOKEN),
      ]) {
        expect(res.status).toBe(400);
        expect(res.body).toHaveProperty('error');
      }
      expect(await count('error_tracking.issues')).toBe(0);
      const collector = await http
        .post(
          `/api/v4/error_tracking/collector/api/${project.id}/store?sentry_key=${project.publicKey}%00`,
        )
        .send({ message: 'x' });
      expect(collector.status).toBe(403);
      expect(collector.body).toEqual({ detail: expect.any(String) });
    });

    it('error tracking: stripped from a Sentry event, which is kept', async () => {
      const res = await http
        .post(
          `/api/v4/error_tracking/collector/api/${project.id}/store?sentry_key=${project.publicKey}`,
        )
        .send({ message: 'nul\u0000here', extra: { 'k\u0000': 'v\u0000' } })
        .expect(200);
      const stored = await db.query(
        'SELECT payload::text AS p FROM error_tracking.events WHERE event_id = $1',
        [res.body.id],
      );
      expect(stored.rows[0].p).toContain('nulhere');
      expect(stored.rows[0].p).not.toContain('\\u0000');
    });
  });

  it('error tracking: an envelope item type made of NUL and 10,000 characters is skipped, not a 500', async () => {
    const header = JSON.stringify({
      'typ\u0000e': `x\u0000${'y'.repeat(10_000)}`,
    });
    const res = await sendRaw(gw.url, {
      path: `/api/v4/error_tracking/collector/api/${project.id}/envelope?sentry_key=${project.publicKey}`,
      body: Buffer.from(`{}\n${header}\n{}\n`),
    });
    expect(res.status).toBe(200);
  });

  describe('deep nesting', () => {
    const deep = deepJson(5_000);

    it('gets the context 400 wherever a body is parsed', async () => {
      const sends = [
        sendRaw(gw.url, {
          path: '/events',
          headers: { 'content-type': 'application/json' },
          body: Buffer.from(`{"title":"x","data":${deep}}`),
        }),
        sendRaw(gw.url, {
          method: 'PATCH',
          path: `/events/${eventId}`,
          headers: { 'content-type': 'application/json' },
          body: Buffer.from(deep),
        }),
        sendRaw(gw.url, {
          method: 'PUT',
          path: `/api/v4/projects/${project.id}/error_tracking/settings`,
          headers: {
            'content-type': 'application/json',
            'private-token': ROOT_TOKEN,
          },
          body: Buffer.from(deep),
        }),
        sendRaw(gw.url, {
          path: `/appdata/${APP_KEY}/product`,
          headers: {
            'content-type': 'application/json',
            authorization: MASTER_AUTH,
          },
          body: Buffer.from(deep),
        }),
      ];
      for (const res of await Promise.all(sends)) expect(res.status).toBe(400);
      const query = await http
        .get(`/appdata/${APP_KEY}/product`)
        .query({ query: deepJson(500) })
        .set('Authorization', MASTER_AUTH);
      expect(query.status).toBe(400);
    });

    it('accepts a body at the documented limit (64 levels)', async () => {
      const res = await http
        .post(`/appdata/${APP_KEY}/product`)
        .set('Authorization', MASTER_AUTH)
        .send(
          JSON.parse(
            `{"name":"deep","measurement":"un","spec":${deepJson(63)}}`,
          ),
        );
      expect(res.body).toMatchObject({ name: 'deep' });
      expect(res.status).toBe(201);
    });

    it('cuts a deep Sentry value and keeps the event', async () => {
      const res = await sendRaw(gw.url, {
        path: `/api/v4/error_tracking/collector/api/${project.id}/store?sentry_key=${project.publicKey}`,
        body: Buffer.from(`{"message":"deep","extra":{"v":${deep}}}`),
      });
      expect(res.status).toBe(200);
      const stored = await db.query(
        'SELECT payload::text AS p FROM error_tracking.events WHERE event_id = $1',
        [res.json()['id']],
      );
      expect(stored.rows[0].p).toMatch(/"\[Object\]"/);
    });
  });
});
