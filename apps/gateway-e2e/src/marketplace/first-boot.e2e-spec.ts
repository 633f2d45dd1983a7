import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

import request from 'supertest';

import { startTestGateway } from '../support/test-gateway';
import type { TestGateway } from '../support/test-gateway';
import { basic } from './marketplace-support';

describe('marketplace first boot (e2e)', () => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startTestGateway();
  });

  afterAll(() => gw?.close());

  it('creates a demo app whose generated credentials, recorded owner-only, work', async () => {
    const file = join(gw.dataDir, 'initial-credentials.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const { marketplace } = JSON.parse(await readFile(file, 'utf8'));
    expect(marketplace).toEqual({
      app_key: expect.stringMatching(/^kid_[A-Za-z0-9]{16}$/),
      app_secret: expect.stringMatching(/^[0-9a-f]{32}$/),
      master_secret: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    const ping = await request(gw.url)
      .get(`/appdata/${marketplace.app_key}`)
      .set(
        'Authorization',
        basic(marketplace.app_key, marketplace.master_secret),
      )
      .expect(200);
    expect(ping.body.kinvey).toBe('hello Quitanda');
  });

  it('documents every Kinvey call in the OpenAPI document', async () => {
    const res = await request(gw.url).get('/openapi.json').expect(200);
    const operations = Object.entries(
      res.body.paths as Record<string, Record<string, unknown>>,
    ).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations).toEqual(
      expect.arrayContaining([
        'GET /appdata/{appKey}',
        'GET /appdata/{appKey}/{collection}',
        'GET /appdata/{appKey}/{collection}/_count',
        'GET /appdata/{appKey}/{collection}/_deltaset',
        'POST /appdata/{appKey}/{collection}/_group',
        'GET /appdata/{appKey}/{collection}/{id}',
        'POST /appdata/{appKey}/{collection}',
        'PUT /appdata/{appKey}/{collection}/{id}',
        'DELETE /appdata/{appKey}/{collection}/{id}',
        'DELETE /appdata/{appKey}/{collection}',
        'POST /user/{appKey}',
        'POST /user/{appKey}/login',
        'POST /user/{appKey}/_logout',
        'GET /user/{appKey}/_me',
        'POST /user/{appKey}/_lookup',
        'GET /user/{appKey}',
        'GET /user/{appKey}/{id}',
        'PUT /user/{appKey}/{id}',
        'DELETE /user/{appKey}/{id}',
        'POST /blob/{appKey}',
        'PUT /blob/{appKey}/{id}',
        'GET /blob/{appKey}',
        'GET /blob/{appKey}/{id}',
        'DELETE /blob/{appKey}/{id}',
        'POST /rpc/{appKey}/check-username-exists',
        'POST /rpc/{appKey}/custom/match',
        'PUT /blob/{appKey}/_upload/{id}',
        'GET /blob/{appKey}/_download/{id}',
      ]),
    );
  });
});
