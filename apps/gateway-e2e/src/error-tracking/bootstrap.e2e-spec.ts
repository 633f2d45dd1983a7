import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

import request from 'supertest';

import { startTestGateway } from '../support/test-gateway';
import type { TestGateway } from '../support/test-gateway';

describe('error tracking first boot (e2e)', () => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startTestGateway({
      ERROR_TRACKING_RETENTION_INTERVAL_MINUTES: '0',
    });
  });

  afterAll(() => gw?.close());

  it('creates the admin root with an api token, recorded owner-only in DATA_DIR/initial-credentials.json', async () => {
    const file = join(gw.dataDir, 'initial-credentials.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const credentials = JSON.parse(await readFile(file, 'utf8'));
    expect(credentials['error-tracking']).toEqual({
      root_username: 'root',
      root_password: expect.any(String),
      root_token: expect.stringMatching(/^glpat-[A-Za-z0-9_-]{20,}$/),
    });
    const me = await request(gw.url)
      .get('/api/v4/user')
      .set('PRIVATE-TOKEN', credentials['error-tracking'].root_token)
      .expect(200);
    expect(me.body).toMatchObject({ username: 'root', is_admin: true });
  });
});
