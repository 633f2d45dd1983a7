import { hashToken } from '@quitanda/kernel';
import { newTestService } from '@quitanda/testing';

import { TEST_OPTIONS } from '../../testing/marketplace-test-module';
import { MARKETPLACE_OPTIONS } from '../common/marketplace.constants';
import type { MarketplaceModuleOptions } from '../common/marketplace.options';
import { MarketplaceDatabase } from '../persistence/marketplace-database';
import type { MarketplaceTx } from '../persistence/marketplace-database';
import { AppBootstrapService } from './app-bootstrap.service';
import { AppsRepository } from './apps.repository';
import { AppsService } from './apps.service';

const CONFIGURED = {
  appKey: 'kid_conf',
  appSecret: 'app-secret',
  masterSecret: 'master-secret',
};

describe('AppBootstrapService', () => {
  const tx = { name: 'tx' } as unknown as MarketplaceTx;
  let apps: jest.Mocked<AppsService>;
  let repository: jest.Mocked<AppsRepository>;

  async function build(options: Partial<MarketplaceModuleOptions>) {
    const built = await newTestService(AppBootstrapService, [
      {
        provide: MARKETPLACE_OPTIONS,
        useValue: { ...TEST_OPTIONS, ...options },
      },
    ]);
    apps = built.mock(AppsService);
    repository = built.mock(AppsRepository);
    built
      .mock(MarketplaceDatabase)
      .transaction.mockImplementation(async (work) => {
        const result = await work(tx);
        // Everything ran inside the transaction, after the lock.
        expect(repository.lockBootstrap).toHaveBeenCalledWith(tx);
        return result;
      });
    apps.create.mockImplementation(async (input) => ({
      appKey: input.appKey ?? 'kid_new',
      appSecret: input.appSecret ?? 'new-app',
      masterSecret: input.masterSecret ?? 'new-master',
      name: input.name,
    }));
    return built.sut;
  }

  it('creates the configured app with the produce definition, named Quitanda unless named', async () => {
    const service = await build({ app: CONFIGURED });
    repository.find.mockResolvedValue(undefined);
    await expect(service.run()).resolves.toBeUndefined();
    expect(repository.find).toHaveBeenCalledWith('kid_conf', tx);
    expect(apps.create).toHaveBeenCalledWith(
      { ...CONFIGURED, name: 'Quitanda', definition: 'produce' },
      tx,
    );
    expect(repository.updateSecrets).not.toHaveBeenCalled();
  });

  it('resets the secrets and name of a configured app that exists', async () => {
    const service = await build({ app: { ...CONFIGURED, name: 'Feira' } });
    repository.find.mockResolvedValue({} as never);
    await expect(service.run()).resolves.toBeUndefined();
    expect(repository.updateSecrets).toHaveBeenCalledWith(
      'kid_conf',
      hashToken('app-secret'),
      hashToken('master-secret'),
      'Feira',
      tx,
    );
    expect(apps.create).not.toHaveBeenCalled();
  });

  it('generates a demo produce app on an empty database and hands back its credentials', async () => {
    const service = await build({});
    repository.count.mockResolvedValue(0);
    await expect(service.run()).resolves.toEqual({
      app_key: 'kid_new',
      app_secret: 'new-app',
      master_secret: 'new-master',
    });
    expect(apps.create).toHaveBeenCalledWith(
      { name: 'Quitanda', definition: 'produce' },
      tx,
    );
  });

  it('leaves a database that has apps alone', async () => {
    const service = await build({});
    repository.count.mockResolvedValue(1);
    await expect(service.run()).resolves.toBeUndefined();
    expect(repository.count).toHaveBeenCalledWith(tx);
    expect(apps.create).not.toHaveBeenCalled();
  });
});
