import type { TestingModule } from '@nestjs/testing';
import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import { errorTrackingTestModule } from '../../testing/error-tracking-test-module';
import { ErrorTrackingCoreModule } from '../core/error-tracking-core.module';
import { AccountsService } from './accounts.service';
import { RootBootstrapService } from './root-bootstrap.service';

describe('first-boot bootstrap of root', () => {
  let database: TestDatabase;
  const modules: TestingModule[] = [];

  beforeEach(async () => {
    database = await openTestDatabase();
  });

  afterEach(async () => {
    await Promise.all(modules.splice(0).map((m) => m.close()));
    await database.close();
  });

  async function replica(initialRootToken?: string): Promise<TestingModule> {
    const module = await errorTrackingTestModule(
      database.url,
      { imports: [ErrorTrackingCoreModule] },
      { initialRootToken },
    );
    modules.push(module);
    return module;
  }

  it('creates one root with a generated api token and password, even when replicas boot together', async () => {
    const replicas = await Promise.all([replica(), replica(), replica()]);
    const results = await Promise.all(
      replicas.map((r) => r.get(RootBootstrapService).run()),
    );
    const generated = results.filter((r) => r !== undefined);
    expect(generated).toEqual([
      {
        root_username: 'root',
        root_password: expect.stringMatching(/^.{20,}$/),
        root_token: expect.stringMatching(/^glpat-/),
      },
    ]);
    const accounts = replicas[0]?.get(AccountsService) as AccountsService;
    const caller = await accounts.authenticate(generated[0]?.['root_token']);
    expect(caller.user).toMatchObject({ username: 'root', isAdmin: true });
    expect(caller.token.scopes).toEqual(['api']);
    // Later boots generate nothing.
    await expect(
      replicas[1]?.get(RootBootstrapService).run(),
    ).resolves.toBeUndefined();
  });

  it('gives root INITIAL_ROOT_TOKEN, survives reboots with it and replaces it when it changes', async () => {
    const first = await replica('glpat-configured-token-aaaaaaaaaaaa');
    const generated = await first.get(RootBootstrapService).run();
    expect(generated).toEqual({
      root_username: 'root',
      root_password: expect.any(String),
    });
    const accounts = first.get(AccountsService);
    await expect(
      accounts.authenticate('glpat-configured-token-aaaaaaaaaaaa'),
    ).resolves.toMatchObject({
      user: { username: 'root' },
    });
    await expect(
      first.get(RootBootstrapService).run(),
    ).resolves.toBeUndefined();

    const rotated = await replica('glpat-configured-token-bbbbbbbbbbbb');
    await expect(
      rotated.get(RootBootstrapService).run(),
    ).resolves.toBeUndefined();
    await expect(
      accounts.authenticate('glpat-configured-token-bbbbbbbbbbbb'),
    ).resolves.toBeDefined();
    await expect(
      accounts.authenticate('glpat-configured-token-aaaaaaaaaaaa'),
    ).rejects.toMatchObject({
      message: '401 Unauthorized',
    });
  });
});
