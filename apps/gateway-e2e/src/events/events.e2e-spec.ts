import request from 'supertest';

import { startTestGateway } from '../support/test-gateway';
import type { TestGateway } from '../support/test-gateway';

const PROBLEM = /^application\/problem\+json/;

describe('events API (e2e)', () => {
  let gw: TestGateway;
  let http: ReturnType<typeof request>;

  beforeAll(async () => {
    gw = await startTestGateway();
    http = request(gw.url);
  });

  afterAll(() => gw?.close());

  async function create(body: Record<string, unknown>) {
    const res = await http.post('/events').send(body).expect(201);
    return res;
  }

  describe('create and read', () => {
    it('creates a record with a v7 id, Location, ETag and millisecond timestamps', async () => {
      const res = await create({
        title: '  Harvest fair  ',
        description: 'Bring baskets',
      });
      expect(res.body).toEqual({
        id: expect.stringMatching(
          /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
        ),
        title: '  Harvest fair  ',
        description: 'Bring baskets',
        created_at: expect.stringMatching(
          /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/,
        ),
        updated_at: res.body.created_at,
      });
      expect(res.headers['location']).toBe(`/events/${res.body.id}`);
      expect(res.headers['etag']).toMatch(/^"1-[0-9a-f]{8}"$/);

      const got = await http.get(res.headers['location']).expect(200);
      expect(got.body).toEqual(res.body);
      expect(got.headers['etag']).toBe(res.headers['etag']);
    });

    it('accepts a trailing slash and defaults the description', async () => {
      const res = await http
        .post('/events/')
        .send({ title: 'Slash' })
        .expect(201);
      expect(res.body.description).toBe('');
    });

    it('ignores id and timestamps sent by the client', async () => {
      const res = await create({
        title: 'Mine',
        id: '00000000-0000-7000-8000-000000000000',
        created_at: '2000-01-01T00:00:00.000Z',
        updated_at: '2000-01-01T00:00:00.000Z',
      });
      expect(res.body.id).not.toBe('00000000-0000-7000-8000-000000000000');
      expect(res.body.created_at.startsWith('2000')).toBe(false);
    });

    it('answers 304 to a matching If-None-Match', async () => {
      const created = await create({ title: 'Cache me' });
      const etag = created.headers['etag'] as string;
      const res = await http
        .get(`/events/${created.body.id}`)
        .set('If-None-Match', `"other", ${etag}`)
        .expect(304);
      expect(res.text).toBe('');
      expect(res.headers['etag']).toBe(etag);
    });

    it('probes existence with /test', async () => {
      const created = await create({ title: 'Probe' });
      await http
        .get(`/events/${created.body.id}/test`)
        .expect(200, { id: created.body.id, exists: true });
      await http
        .get('/events/01a20177-f2a1-76d2-8065-e60865a06cdf/test')
        .expect(404)
        .expect('Content-Type', PROBLEM);
    });

    it('answers 404 problem+json for unknown and non-UUID ids', async () => {
      const missing = await http
        .get('/events/01a20177-f2a1-76d2-8065-e60865a06cdf')
        .expect(404);
      expect(missing.headers['content-type']).toMatch(PROBLEM);
      expect(missing.body).toMatchObject({
        type: 'urn:quitanda:problem:event-not-found',
        title: 'Event not found',
        status: 404,
      });
      expect(missing.body).not.toHaveProperty('errors');
      await http.get('/events/42').expect(404).expect('Content-Type', PROBLEM);
      await http
        .delete('/events/not-a-uuid')
        .expect(404)
        .expect('Content-Type', PROBLEM);
    });
  });

  describe('validation and body errors', () => {
    it('lists every failing field at once', async () => {
      const res = await http
        .post('/events')
        .send({
          title: '   ',
          description: 'x'.repeat(10_001),
          colour: 'red',
          size: 3,
        })
        .expect(400);
      expect(res.headers['content-type']).toMatch(PROBLEM);
      expect(res.body.type).toBe('urn:quitanda:problem:validation-failed');
      const fields = (res.body.errors as Array<{ field: string }>)
        .map((e) => e.field)
        .sort();
      expect(fields).toEqual(['colour', 'description', 'size', 'title']);
    });

    it('requires a title of 1..200 characters after trimming', async () => {
      await http.post('/events').send({ description: 'no title' }).expect(400);
      await http
        .post('/events')
        .send({ title: 'x'.repeat(201) })
        .expect(400);
      await http.post('/events').send({ title: 7 }).expect(400);
      await create({ title: ` ${'x'.repeat(200)} ` });
    });

    it('refuses malformed JSON with 400', async () => {
      const res = await http
        .post('/events')
        .set('Content-Type', 'application/json')
        .send('{"title": ')
        .expect(400);
      expect(res.headers['content-type']).toMatch(PROBLEM);
      expect(res.body.type).toBe('urn:quitanda:problem:malformed-body');
    });

    it('refuses a body that is not JSON with 415', async () => {
      const res = await http
        .post('/events')
        .set('Content-Type', 'text/plain')
        .send('title=hello')
        .expect(415);
      expect(res.body.type).toBe('urn:quitanda:problem:unsupported-media-type');
    });

    it('refuses a body over 64 KiB with 413 and stores nothing', async () => {
      const marker = `oversized-${Date.now()}`;
      const res = await http
        .post('/events')
        .send({ title: marker, description: 'y'.repeat(70 * 1024) })
        .expect(413);
      expect(res.body.type).toBe('urn:quitanda:problem:payload-too-large');
      const list = await http.get('/events').query({ q: marker }).expect(200);
      expect(list.body).toEqual([]);
    });

    it('refuses arrays and primitives as bodies', async () => {
      await http
        .post('/events')
        .send([{ title: 'a' }])
        .expect(400);
      await http
        .post('/events')
        .set('Content-Type', 'application/json')
        .send('"title"')
        .expect(400);
    });

    it('answers unknown routes under /events in problem+json, never HTML', async () => {
      const res = await http.get('/events/a/b/c').expect(404);
      expect(res.headers['content-type']).toMatch(PROBLEM);
      expect(res.text).not.toMatch(/<html/i);
    });
  });

  describe('listing', () => {
    it('pages newest first through Link headers', async () => {
      const tag = `page-${Date.now()}`;
      const ids: string[] = [];
      for (let i = 0; i < 5; i++)
        ids.push((await create({ title: `${tag} ${i}` })).body.id);

      const first = await http
        .get('/events')
        .query({ q: tag, limit: 2 })
        .expect(200);
      expect(first.body.map((e: { id: string }) => e.id)).toEqual([
        ids[4],
        ids[3],
      ]);
      const next = /<([^>]+)>; rel="next"/.exec(
        first.headers['link'] as string,
      )?.[1];
      expect(next).toMatch(/^\/events\?/);

      const second = await http.get(next as string).expect(200);
      expect(second.body.map((e: { id: string }) => e.id)).toEqual([
        ids[2],
        ids[1],
      ]);
      const third = await http
        .get(/<([^>]+)>/.exec(second.headers['link'] as string)?.[1] as string)
        .expect(200);
      expect(third.body.map((e: { id: string }) => e.id)).toEqual([ids[0]]);
      expect(third.headers['link']).toBeUndefined();
    });

    it('searches case-insensitively with % and _ as plain characters', async () => {
      const tag = `srch${Date.now()}`;
      const hit = await create({ title: `Discount 50%_${tag}` });
      await create({ title: `Discount 50xx${tag}` });
      const res = await http
        .get('/events')
        .query({ q: `50%_${tag.toUpperCase()}` })
        .expect(200);
      expect(res.body.map((e: { id: string }) => e.id)).toEqual([hit.body.id]);
    });

    it.each([['0'], ['101'], ['abc'], ['1.5']])(
      'refuses limit=%s',
      async (limit) => {
        const res = await http.get('/events').query({ limit }).expect(400);
        expect(res.body.errors).toEqual([
          { field: 'limit', message: expect.any(String) },
        ]);
      },
    );

    it('refuses a malformed cursor and ignores unknown parameters', async () => {
      const res = await http
        .get('/events')
        .query({ cursor: 'garbage' })
        .expect(400);
      expect(res.body.errors).toEqual([
        { field: 'cursor', message: expect.any(String) },
      ]);
      await http.get('/events').query({ _: '123', limit: 1 }).expect(200);
    });
  });

  describe('updates and preconditions', () => {
    it('patches part of a record and bumps the ETag', async () => {
      const created = await create({ title: 'Old', description: 'keep' });
      const res = await http
        .patch(`/events/${created.body.id}`)
        .send({ title: 'New' })
        .expect(200);
      expect(res.body).toMatchObject({ title: 'New', description: 'keep' });
      expect(res.headers['etag']).toMatch(/^"2-/);
      expect(res.body.updated_at >= created.body.updated_at).toBe(true);
    });

    it('replaces a whole record with PUT', async () => {
      const created = await create({ title: 'Old', description: 'gone' });
      const res = await http
        .put(`/events/${created.body.id}`)
        .send({ title: 'Whole' })
        .expect(200);
      expect(res.body).toMatchObject({ title: 'Whole', description: '' });
      await http
        .put(`/events/${created.body.id}`)
        .send({ description: 'no title' })
        .expect(400);
      await http
        .put('/events/01a20177-f2a1-76d2-8065-e60865a06cdf')
        .send({ title: 'x' })
        .expect(404);
    });

    it('honours If-Match on PATCH, PUT and DELETE', async () => {
      const created = await create({ title: 'Guarded' });
      const v1 = created.headers['etag'] as string;
      const patched = await http
        .patch(`/events/${created.body.id}`)
        .set('If-Match', v1)
        .send({ description: 'one' })
        .expect(200);
      const v2 = patched.headers['etag'] as string;

      const stale = await http
        .put(`/events/${created.body.id}`)
        .set('If-Match', v1)
        .send({ title: 'lost update' })
        .expect(412);
      expect(stale.body.type).toBe('urn:quitanda:problem:precondition-failed');
      await http
        .delete(`/events/${created.body.id}`)
        .set('If-Match', v1)
        .expect(412);
      await http
        .get(`/events/${created.body.id}`)
        .expect(200)
        .expect((r) => {
          expect(r.body.title).toBe('Guarded');
        });

      await http
        .delete(`/events/${created.body.id}`)
        .set('If-Match', v2)
        .expect(204);
      await http.get(`/events/${created.body.id}`).expect(404);
    });

    it('deletes with 204 and then 404', async () => {
      const created = await create({ title: 'Bye' });
      const res = await http.delete(`/events/${created.body.id}`).expect(204);
      expect(res.text).toBe('');
      await http.delete(`/events/${created.body.id}`).expect(404);
    });
  });
});

describe('events API with EVENTS_WRITE_TOKEN (e2e)', () => {
  let gw: TestGateway;
  let http: ReturnType<typeof request>;
  const token = 'events-write-token-1234';

  beforeAll(async () => {
    gw = await startTestGateway({ EVENTS_WRITE_TOKEN: token });
    http = request(gw.url);
  });

  afterAll(() => gw?.close());

  it('requires the bearer token for writes and keeps reads open', async () => {
    const refused = await http.post('/events').send({ title: 'x' }).expect(401);
    expect(refused.headers['content-type']).toMatch(PROBLEM);
    expect(refused.headers['www-authenticate']).toMatch(/^Bearer/);
    await http
      .post('/events')
      .set('Authorization', 'Bearer wrong-token-000000')
      .send({ title: 'x' })
      .expect(401);

    const created = await http
      .post('/events')
      .set('Authorization', `Bearer ${token}`)
      .send({ title: 'allowed' })
      .expect(201);
    await http.get(`/events/${created.body.id}`).expect(200);
    await http.get('/events').expect(200);
    await http.delete(`/events/${created.body.id}`).expect(401);
    await http
      .patch(`/events/${created.body.id}`)
      .send({ title: 'y' })
      .expect(401);
    await http
      .delete(`/events/${created.body.id}`)
      .set('Authorization', `bearer ${token}`)
      .expect(204);
  });
});
