import type { TestingModule } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';
import type { DataSource } from 'typeorm';

import {
  errorTrackingTestModule,
  seedProject,
  sqlOf,
} from '../../testing/error-tracking-test-module';
import { ERROR_TRACKING_DATA_SOURCE } from '../common/error-tracking.constants';
import { AlertsKeyCheck } from './alerts-key-check';
import { AlertsModule } from './alerts.module';
import { TokenCipher } from './token-cipher';

const KEY_A = 'key-a-of-at-least-thirty-two-characters';
const KEY_B = 'key-b-of-at-least-thirty-two-characters';

describe('the alerts key check (against the database)', () => {
  let database: TestDatabase;
  const modules: TestingModule[] = [];

  /** A gateway's error-tracking alerts with this key, booted. */
  async function boot(encryptionKey: string): Promise<TestingModule> {
    const module = await errorTrackingTestModule(
      database.url,
      { imports: [AlertsModule] },
      {
        alerts: {
          allowLocalTargets: true,
          encryptionKey,
          retryDelaysSeconds: [60],
          pollSeconds: 0,
        },
      },
    );
    try {
      await module.init();
    } catch (error) {
      // A module whose boot failed rethrows that failure on close(): its
      // pool is ended by hand instead.
      await module
        .get<DataSource>(getDataSourceToken(ERROR_TRACKING_DATA_SOURCE))
        .destroy();
      throw error;
    }
    modules.push(module);
    return module;
  }

  beforeEach(async () => {
    database = await openTestDatabase();
  });

  afterEach(async () => {
    await Promise.all(modules.splice(0).map((module) => module.close()));
    await database.close();
  });

  it('lets any key boot while no token is stored, then only the key that stored one', async () => {
    const first = await boot(KEY_A);
    await boot(KEY_B);
    await first.get(AlertsKeyCheck).beforeSeal();
    const stored = await sqlOf(first).rows<{ value: string }>(
      `SELECT value FROM error_tracking.instance_settings WHERE name = 'alerts_key_check'`,
    );
    // A check value, never the key itself.
    expect(stored).toEqual([
      { value: expect.stringMatching(/^[0-9a-f]{64}$/) },
    ]);
    expect(JSON.stringify(stored)).not.toContain(KEY_A);
    await expect(boot(KEY_B)).rejects.toThrow(
      /ALERTS_ENCRYPTION_KEY differs from the key .* stored in this database/,
    );
    await expect(boot(KEY_A)).resolves.toBeDefined();
  });

  it('refuses to seal a token under a second key that booted before the first token', async () => {
    const first = await boot(KEY_A);
    const second = await boot(KEY_B);
    await first.get(AlertsKeyCheck).beforeSeal();
    await expect(second.get(AlertsKeyCheck).beforeSeal()).rejects.toThrow(
      /ALERTS_ENCRYPTION_KEY differs/,
    );
  });

  it('checks tokens stored before there was a check value against the key', async () => {
    const module = await boot(KEY_A);
    const { projectId } = await seedProject(sqlOf(module));
    await sqlOf(module).rows(
      `INSERT INTO error_tracking.webhooks
         (project_id, url, token_ciphertext, error_tracking_events, enable_ssl_verification, created_at)
       VALUES ($1, 'http://127.0.0.1:9/hook', $2, true, true, now())`,
      [projectId, new TokenCipher(KEY_A).encrypt('sealed-before-checks')],
    );
    await expect(boot(KEY_B)).rejects.toThrow(/ALERTS_ENCRYPTION_KEY differs/);
    await expect(boot(KEY_A)).resolves.toBeDefined();
    await expect(boot(KEY_B)).rejects.toThrow(/ALERTS_ENCRYPTION_KEY differs/);
  });
});
