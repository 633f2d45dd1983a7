import request from 'supertest';

import { startTestGateway } from '../support/test-gateway';
import type { TestGateway } from '../support/test-gateway';

const METRICS_TOKEN = 'metrics-token-0123456789';

describe('who may reach the operations endpoints (e2e)', () => {
  let gw: TestGateway;
  let http: ReturnType<typeof request>;

  beforeAll(async () => {
    gw = await startTestGateway({ CONTEXTS: 'events', METRICS_TOKEN });
    http = request(gw.url);
  });

  afterAll(() => gw?.close());

  describe('/metrics with METRICS_TOKEN set', () => {
    it.each([
      ['no credentials', undefined],
      ['a wrong token', 'Bearer metrics-token-0123456780'],
      ['the token without the Bearer scheme', METRICS_TOKEN],
      ['the token as Basic', `Basic ${METRICS_TOKEN}`],
      ['a prefix of the token', 'Bearer metrics-token'],
    ])('refuses %s: 401, nothing measured', async (_label, authorization) => {
      const call = http.get('/metrics');
      if (authorization) call.set('Authorization', authorization);
      const res = await call.expect(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({
        statusCode: 401,
        error: 'unauthorized',
        message: expect.any(String),
        request_id: expect.any(String),
      });
      expect(res.text).not.toContain('http_requests_total');
    });

    it('serves them to `Authorization: Bearer <token>`', async () => {
      const res = await http
        .get('/metrics')
        .set('Authorization', `Bearer ${METRICS_TOKEN}`)
        .expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.text).toContain('http_requests_total');
    });
  });
});
