import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';

import { loadConfig, startGateway } from '@quitanda/gateway';
import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';
import pino from 'pino';
import request from 'supertest';

import { startTestGateway, testGatewayEnv } from '../support/test-gateway';
import type { TestGateway } from '../support/test-gateway';
import type { ErrorTrackingGateway } from './error-tracking-support';
import { rootPassword } from './web-support';

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

describe('the sign-in line once root chose a password (e2e)', () => {
  let database: TestDatabase;
  let dataDir: string;

  beforeAll(async () => {
    database = await openTestDatabase();
    dataDir = await mkdtemp(join(tmpdir(), 'quitanda-e2e-retired-'));
  });

  afterAll(async () => {
    await database?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Starts the gateway on this file's database and DATA_DIR; its log lines. */
  async function start() {
    const lines: Array<Record<string, unknown>> = [];
    const log = pino(
      { level: 'info' },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(JSON.parse(chunk.toString('utf8')));
          done();
        },
      }),
    );
    const gateway = await startGateway(
      loadConfig({
        ...testGatewayEnv(database.url, dataDir),
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'json',
        ERROR_TRACKING_RETENTION_INTERVAL_MINUTES: '0',
      }),
      log,
    );
    const signIn = () =>
      lines.find((line) => String(line['msg']).startsWith('Credentials'));
    return { gateway, signIn };
  }

  it('stops naming the generated root password, and the file no longer holds it', async () => {
    const file = join(dataDir, 'initial-credentials.json');
    const first = await start();
    try {
      expect(first.signIn()?.['msg']).toContain(
        'sign in as root with "root_password"',
      );
      const generated = JSON.parse(await readFile(file, 'utf8'));
      await rootPassword({
        url: first.gateway.url,
        dataDir,
      } as ErrorTrackingGateway);
      // Dropped as the new password is set, not only at the next start.
      expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
        ...generated,
        'error-tracking': {
          root_token: generated['error-tracking'].root_token,
        },
      });
    } finally {
      await first.gateway.close();
    }
    const recorded = JSON.parse(await readFile(file, 'utf8'));

    const second = await start();
    try {
      const line = second.signIn();
      expect(line?.['msg']).not.toContain('root_password');
      expect(line?.['msg']).not.toContain('sign in as root');
      expect(line).not.toHaveProperty('ui_username');
      // What still works is still named: the token and the marketplace app.
      expect(line?.['msg']).toContain('PRIVATE-TOKEN with "root_token"');
      expect(line?.['msg']).toContain(recorded.marketplace.app_key);
      expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
        ...recorded,
        'error-tracking': {
          root_token: recorded['error-tracking'].root_token,
        },
      });
      expect((await stat(file)).mode & 0o777).toBe(0o600);
    } finally {
      await second.gateway.close();
    }
  });
});
