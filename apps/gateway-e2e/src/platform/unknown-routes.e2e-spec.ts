import request from 'supertest';

import { startTestGateway } from '../support/test-gateway';
import type { TestGateway } from '../support/test-gateway';

const PROBLEM = /^application\/problem\+json/;

/**
 * A context's body, content-type and session middleware is applied to its
 * namespaces (`/events...`, the GitLab API's `/api/v4/...`, `/api/0/...`,
 * the pages), as the marketplace's is to `/appdata/...`: an unknown route
 * there meets it before the 404, and every answer is in the context's own
 * format (docs/decisions.md, "Middleware by namespace").
 */
describe('unknown routes inside a context (e2e)', () => {
  let gw: TestGateway;
  let http: ReturnType<typeof request>;

  beforeAll(async () => {
    gw = await startTestGateway();
    http = request(gw.url);
  });

  afterAll(() => gw?.close());

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
