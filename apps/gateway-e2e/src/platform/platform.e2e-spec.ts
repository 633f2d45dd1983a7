import request from 'supertest';

import { startTestGateway } from '../support/test-gateway';
import type { TestGateway } from '../support/test-gateway';

const PROBLEM = /^application\/problem\+json/;

describe('platform operations (e2e)', () => {
  let gw: TestGateway;
  let http: ReturnType<typeof request>;

  beforeAll(async () => {
    gw = await startTestGateway();
    http = request(gw.url);
  });

  afterAll(() => gw?.close());

  it('reports liveness', async () => {
    await http.get('/health/live').expect(200, { status: 'ok' });
  });

  it('reports readiness per context', async () => {
    const res = await http.get('/health/ready').expect(200);
    expect(res.body).toEqual({
      status: 'ok',
      contexts: expect.objectContaining({
        events: { database: 'up', migrations: 'applied' },
      }),
      spool: { events: 0, bytes: 0, oldest_age_seconds: 0 },
    });
  });

  it('gives every response a request id, honouring a sane incoming one', async () => {
    const generated = await http.get('/health/live');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await http
      .get('/health/live')
      .set('X-Request-Id', 'trace-abc.123');
    expect(echoed.headers['x-request-id']).toBe('trace-abc.123');
    const replaced = await http
      .get('/health/live')
      .set('X-Request-Id', 'bad id with spaces');
    expect(replaced.headers['x-request-id']).not.toBe('bad id with spaces');
  });

  it('exposes Prometheus metrics by route pattern and pool use', async () => {
    await http.get('/events/01a20177-f2a1-76d2-8065-e60865a06cdf').expect(404);
    const res = await http.get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toMatch(
      /http_requests_total\{method="GET",route="\/events\/:id",status="404"\} \d+/,
    );
    expect(res.text).toMatch(/http_request_duration_seconds_bucket\{/);
    expect(res.text).toMatch(/db_pool_connections\{context="events"\} \d+/);
    expect(res.text).toMatch(/^quitanda_collector_spool_events 0$/m);
    expect(res.text).toMatch(/^quitanda_collector_spool_bytes 0$/m);
  });

  it('serves an OpenAPI document covering the events API, and its UI', async () => {
    const res = await http.get('/openapi.json').expect(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        '/events',
        '/events/{id}',
        '/events/{id}/test',
        '/health/ready',
        '/metrics',
      ]),
    );
    expect(Object.keys(res.body.paths['/events/{id}'])).toEqual(
      expect.arrayContaining(['get', 'patch', 'put', 'delete']),
    );
    const docs = await http.get('/docs').redirects(1).expect(200);
    expect(docs.text).toMatch(/swagger/i);
  });

  it('answers unknown paths with JSON, never an HTML page or a stack', async () => {
    const res = await http.get('/no/such/thing').expect(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      statusCode: 404,
      error: 'route_not_found',
      message: expect.any(String),
      request_id: res.headers['x-request-id'],
    });
  });

  /**
   * A context's body, content-type and session middleware is applied to
   * its namespaces (`/events...`, the GitLab API's `/api/v4/...`,
   * `/api/0/...`, the pages), as the marketplace's is to `/appdata/...`: an
   * unknown route there meets it before the 404, and every answer is in the
   * context's own format (docs/decisions.md, "Middleware by namespace").
   */
  describe('unknown routes inside a context', () => {
    it('events: 404 in problem+json; a body that is not JSON is refused first', async () => {
      const missing = await http
        .post('/events/a/b')
        .set('Content-Type', 'application/json')
        .send('{"title":"x"}')
        .expect(404);
      expect(missing.headers['content-type']).toMatch(PROBLEM);
      const text = await http
        .post('/events/a/b')
        .set('Content-Type', 'text/plain')
        .send('x')
        .expect(415);
      expect(text.headers['content-type']).toMatch(PROBLEM);
    });

    it("GitLab API: 404 in GitLab's JSON; malformed JSON is GitLab's 400", async () => {
      const missing = await http
        .post('/api/v4/projects/1/nope')
        .set('Content-Type', 'application/json')
        .send('{"x":1}')
        .expect(404);
      expect(missing.body).toEqual({ error: '404 Not Found' });
      const malformed = await http
        .post('/api/v4/projects/1/nope')
        .set('Content-Type', 'application/json')
        .send('{bad')
        .expect(400);
      expect(malformed.body).toEqual({ error: expect.any(String) });
    });

    it("sentry-cli's API: 404 in Sentry's JSON", async () => {
      const res = await http.post('/api/0/nope/x').expect(404);
      expect(res.body).toEqual({ detail: expect.any(String) });
    });

    it('pages: a signed-out visitor is sent to sign in first, as GitLab does', async () => {
      const res = await http.get('/projects/1/nope').expect(302);
      expect(res.headers['location']).toBe(
        '/users/sign_in?redirect_to=%2Fprojects%2F1%2Fnope',
      );
    });
  });

  it('keeps an idle keep-alive connection 75 s, and says so', async () => {
    // Closing an idle connection races a client reusing it that instant
    // (ECONNRESET): most clients pool theirs longer than Node's 5 s, and
    // Node's and undici's drop theirs before the advertised timeout.
    const res = await http.get('/health/live').set('Connection', 'keep-alive');
    expect(res.headers['connection']).toBe('keep-alive');
    expect(res.headers['keep-alive']).toBe('timeout=75');
  });

  it('does not advertise its framework and forbids content sniffing', async () => {
    const res = await http.get('/health/live');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('graceful shutdown (e2e)', () => {
  it('finishes accepted writes before closing; every acknowledged write is stored', async () => {
    const gw = await startTestGateway();
    const http = request(gw.url);
    const tag = `shutdown-${Date.now()}`;
    const writes = Array.from({ length: 30 }, (_, i) =>
      http
        .post('/events')
        .send({ title: `${tag} ${i}` })
        .then(
          (res) => ({
            status: res.status,
            id: res.body?.id as string | undefined,
          }),
          () => ({ status: 0, id: undefined }),
        ),
    );
    // Let the requests reach the server, then stop it while they run.
    await new Promise((resolve) => setImmediate(resolve));
    const closing = gw.gateway.app.close();
    const results = await Promise.all(writes);
    await closing;

    const acknowledged = results
      .filter((r) => r.status === 201)
      .map((r) => r.id);
    expect(results.every((r) => r.status === 201 || r.status === 0)).toBe(true);

    // Re-open the same database with a fresh gateway and find every acknowledged record.
    const { Client } = await import('pg');
    const client = new Client({ connectionString: gw.databaseUrl });
    await client.connect();
    const stored = await client.query<{ id: string }>(
      'SELECT id FROM events.events WHERE title LIKE $1',
      [`${tag} %`],
    );
    await client.end();
    expect(stored.rows.map((r) => r.id).sort()).toEqual(
      expect.arrayContaining(acknowledged.sort() as string[]),
    );
    await gw.close();
  });
});
