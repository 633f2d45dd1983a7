import type { TestingModule } from '@nestjs/testing';
import { captureStdout, openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import { marketplaceTestModule } from '../../testing/marketplace-test-module';
import { AppsRepository } from '../apps/apps.repository';
import { AppsService, secretKind } from '../apps/apps.service';
import { CreateAppCommand, ListAppsCommand } from './marketplace-cli.commands';

describe('marketplace CLI commands', () => {
  let database: TestDatabase;
  let module: TestingModule;
  const stdout = captureStdout();

  beforeAll(async () => {
    database = await openTestDatabase();
    module = await marketplaceTestModule(database.url, [
      AppsRepository,
      AppsService,
      CreateAppCommand,
      ListAppsCommand,
    ]);
  });

  afterAll(async () => {
    await module?.close();
    await database?.close();
  });

  it('marketplace:apps:create prints working credentials once; :list shows apps without secrets', async () => {
    await module
      .get(CreateAppCommand)
      .run([], { name: 'Feira', access: 'read' });
    const created = JSON.parse(stdout.text()) as Record<string, string>;
    expect(created).toEqual({
      appKey: expect.stringMatching(/^kid_[A-Za-z0-9]{16}$/),
      appSecret: expect.stringMatching(/^[0-9a-f]{32}$/),
      masterSecret: expect.stringMatching(/^[0-9a-f]{32}$/),
      name: 'Feira',
    });
    const app = await module.get(AppsService).get(created['appKey'] as string);
    expect(app.appCredentialAccess).toBe('read');
    expect(secretKind(app, created['masterSecret'] as string)).toBe('master');

    stdout.clear();
    await module.get(ListAppsCommand).run();
    const listing = stdout.text();
    expect(listing).toContain(
      `${created['appKey']}\tFeira\tDevelopment\tread\t`,
    );
    expect(listing).not.toContain(created['appSecret']);
    expect(listing).not.toContain(created['masterSecret']);
  });

  it('refuses an unknown access level', () => {
    expect(() => module.get(CreateAppCommand).parseAccess('all')).toThrow(
      /--access/,
    );
  });
});
