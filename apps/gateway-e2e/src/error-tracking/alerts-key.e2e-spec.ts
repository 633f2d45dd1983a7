import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadConfig, startGateway } from '@quitanda/gateway';

import {
  ROOT_TOKEN,
  createTrackedProject,
  startErrorTrackingGateway,
} from './error-tracking-support';
import type { ErrorTrackingGateway } from './error-tracking-support';

const HOOK = { url: 'http://127.0.0.1:9/hook', token: 'a-secret-token' };

describe('the alerts encryption key of a default install (e2e)', () => {
  let gw: ErrorTrackingGateway;
  let otherDataDir: string;

  beforeAll(async () => {
    // No ALERTS_ENCRYPTION_KEY: what `npm start` does on a fresh machine.
    gw = await startErrorTrackingGateway({
      ALERTS_ALLOW_LOCAL_TARGETS: 'true',
    });
    otherDataDir = await mkdtemp(join(tmpdir(), 'quitanda-replica-'));
  });

  afterAll(async () => {
    await gw?.close();
    await rm(otherDataDir, { recursive: true, force: true });
  });

  /** A second gateway on the same database, with its own DATA_DIR. */
  function replica(env: Record<string, string> = {}) {
    return startGateway(
      loadConfig({
        HOST: '127.0.0.1',
        PORT: '0',
        DATABASE_URL: gw.databaseUrl,
        DATA_DIR: otherDataDir,
        MIGRATIONS: 'off',
        LOG_LEVEL: 'silent',
        DB_POOL_SIZE: '2',
        ...env,
      }),
    );
  }

  it('creates a hook with a secret token, the key generated at first boot and kept owner-only', async () => {
    const project = await createTrackedProject(gw);
    const created = await gw.http
      .post(`/api/v4/projects/${project.id}/hooks`)
      .set('PRIVATE-TOKEN', ROOT_TOKEN)
      .send(HOOK);
    expect(created.status).toBe(201);
    const file = join(gw.dataDir, 'secrets.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const secrets = JSON.parse(await readFile(file, 'utf8')) as Record<
      string,
      string
    >;
    expect(secrets['alerts_encryption_key']).toMatch(/^\S{43,}$/);
    const [check] = await gw.query<{ value: string }>(
      `SELECT value FROM error_tracking.instance_settings WHERE name = 'alerts_key_check'`,
    );
    expect(check?.value).not.toContain(secrets['alerts_encryption_key']);
  });

  it('refuses to start a replica whose key differs, and starts one given the same key', async () => {
    await expect(replica()).rejects.toThrow(
      /ALERTS_ENCRYPTION_KEY differs from the key that encrypted the webhook secret tokens/,
    );
    const secrets = JSON.parse(
      await readFile(join(gw.dataDir, 'secrets.json'), 'utf8'),
    ) as Record<string, string>;
    const same = await replica({
      ALERTS_ENCRYPTION_KEY: secrets['alerts_encryption_key'] ?? '',
    });
    await same.close();
  });
});
