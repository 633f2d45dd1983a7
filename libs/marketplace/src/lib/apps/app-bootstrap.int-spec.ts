import type { TestingModule } from '@nestjs/testing';
import { defined, freshDatabasePerTest } from '@quitanda/testing';

import { marketplaceTestModule } from '../../testing/marketplace-test-module';
import type { ConfiguredApp } from '../common/marketplace.options';
import { AppBootstrapService } from './app-bootstrap.service';
import { AppsRepository } from './apps.repository';
import { AppsService, secretKind } from './apps.service';

describe('first-boot marketplace app', () => {
  const database = freshDatabasePerTest();

  async function replica(app?: ConfiguredApp): Promise<TestingModule> {
    return database.track(
      await marketplaceTestModule(
        database.url(),
        [AppsRepository, AppsService, AppBootstrapService],
        { app },
      ),
    );
  }

  it('generates one demo app with hashed secrets, even when replicas boot together', async () => {
    const replicas = await Promise.all([replica(), replica(), replica()]);
    const results = await Promise.all(
      replicas.map((r) => r.get(AppBootstrapService).run()),
    );
    const generated = results.filter((r) => r !== undefined);
    expect(generated).toEqual([
      {
        app_key: expect.stringMatching(/^kid_[A-Za-z0-9]{16}$/),
        app_secret: expect.stringMatching(/^[0-9a-f]{32}$/),
        master_secret: expect.stringMatching(/^[0-9a-f]{32}$/),
      },
    ]);
    const credentials = generated[0] as Record<string, string>;
    const app = await replicas[0]
      ?.get(AppsService)
      .get(credentials['app_key'] as string);
    expect(JSON.stringify(app)).not.toContain(credentials['app_secret']);
    expect(secretKind(defined(app), credentials['app_secret'] as string)).toBe(
      'app',
    );
    expect(
      secretKind(defined(app), credentials['master_secret'] as string),
    ).toBe('master');
    expect(secretKind(defined(app), 'guess')).toBeUndefined();
    await expect(
      replicas[1]?.get(AppBootstrapService).run(),
    ).resolves.toBeUndefined();
  });

  it('ensures the configured app, and follows its secrets when they change', async () => {
    const configured = {
      appKey: 'kid_configured0001',
      appSecret: 'first-app-secret-123',
      masterSecret: 'first-master-secret-123',
      name: 'Configured',
    };
    const first = await replica(configured);
    await expect(first.get(AppBootstrapService).run()).resolves.toBeUndefined();
    const second = await replica({
      ...configured,
      appSecret: 'second-app-secret-123',
    });
    await second.get(AppBootstrapService).run();
    const app = await second.get(AppsRepository).find(configured.appKey);
    expect(app?.name).toBe('Configured');
    expect(secretKind(defined(app), 'second-app-secret-123')).toBe('app');
    expect(secretKind(defined(app), 'first-app-secret-123')).toBeUndefined();
    expect(await second.get(AppsRepository).count()).toBe(1);
  });
});
