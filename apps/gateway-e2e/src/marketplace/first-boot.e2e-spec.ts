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
});
