import { CLOCK, FixedClock, hashToken } from '@quitanda/kernel';
import { newTestService } from '@quitanda/testing';

import { testApp } from '../../testing/principals';
import { PRODUCE_DEFINITION } from '../collections/produce-definition';
import { MarketplaceErrorCode } from '../common/marketplace.errors';
import type { MarketplaceTx } from '../persistence/marketplace-database';
import { AppsRepository } from './apps.repository';
import { AppsService } from './apps.service';

describe('AppsService', () => {
  let service: AppsService;
  let repository: jest.Mocked<AppsRepository>;
  const clock = new FixedClock('2026-06-01T10:00:00.000Z');

  beforeEach(async () => {
    const built = await newTestService(AppsService, [
      { provide: CLOCK, useValue: clock },
    ]);
    service = built.sut;
    repository = built.mock(AppsRepository);
    repository.insert.mockResolvedValue(true);
  });

  afterEach(() => jest.useRealTimers());

  it('creates an app with generated key and secrets, storing only their digests', async () => {
    const created = await service.create({ name: 'Feira' });
    expect(created.appKey).toMatch(/^kid_[0-9A-Za-z]{16}$/);
    expect(created.appSecret).toMatch(/^[0-9a-f]{32}$/);
    expect(created.masterSecret).not.toBe(created.appSecret);
    const [stored, tx, collections] = repository.insert.mock.calls[0] ?? [];
    expect(stored).toEqual({
      appKey: created.appKey,
      name: 'Feira',
      environmentName: 'Development',
      appSecretDigest: hashToken(created.appSecret),
      masterSecretDigest: hashToken(created.masterSecret),
      appCredentialAccess: 'read-create',
      signingKey: expect.stringMatching(/^[\w-]{43}$/),
      createCollectionsOnWrite: false,
      createdAt: clock.now(),
    });
    expect(tx).toBeUndefined();
    // No collections unless a definition is asked for.
    expect(collections).toEqual({});
  });

  it('gives the app the collections of the definition asked for', async () => {
    await service.create({ name: 'Feira', definition: 'produce' });
    expect(repository.insert.mock.calls[0]?.[2]).toBe(PRODUCE_DEFINITION);
  });

  it('keeps given credentials and settings and joins the given transaction', async () => {
    const tx = {} as MarketplaceTx;
    await expect(
      service.create(
        {
          name: 'Feira',
          appKey: 'kid_fixed',
          appSecret: 'a',
          masterSecret: 'm',
          environmentName: 'Production',
          appCredentialAccess: 'read',
          definition: null,
          createCollectionsOnWrite: true,
        },
        tx,
      ),
    ).resolves.toEqual({
      appKey: 'kid_fixed',
      appSecret: 'a',
      masterSecret: 'm',
      name: 'Feira',
    });
    expect(repository.insert).toHaveBeenCalledWith(
      expect.objectContaining({
        appKey: 'kid_fixed',
        environmentName: 'Production',
        appCredentialAccess: 'read',
        createCollectionsOnWrite: true,
      }),
      tx,
      {},
    );
  });

  it('refuses equal secrets, an unknown definition and a taken key', async () => {
    await expect(
      service.create({ name: 'x', appSecret: 's', masterSecret: 's' }),
    ).rejects.toMatchObject({ code: MarketplaceErrorCode.BadRequest });
    await expect(
      service.create({ name: 'x', definition: 'nope' }),
    ).rejects.toMatchObject({ code: MarketplaceErrorCode.BadRequest });
    expect(repository.insert).not.toHaveBeenCalled();
    repository.insert.mockResolvedValue(false);
    await expect(
      service.create({ name: 'x', appKey: 'kid_taken' }),
    ).rejects.toMatchObject({
      code: MarketplaceErrorCode.DuplicateEntity,
      message: expect.stringContaining('kid_taken'),
    });
  });

  it('remembers an app for five seconds, and never an unknown key', async () => {
    jest.useFakeTimers({ now: new Date('2026-06-01T10:00:00.000Z') });
    repository.find.mockResolvedValue(testApp());
    await service.get('kid_test');
    jest.advanceTimersByTime(4_999);
    await expect(service.get('kid_test')).resolves.toEqual(testApp());
    expect(repository.find).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(1);
    await service.get('kid_test');
    expect(repository.find).toHaveBeenCalledTimes(2);

    repository.find.mockResolvedValue(undefined);
    for (let i = 0; i < 2; i++)
      await expect(service.get('kid_none')).rejects.toMatchObject({
        code: MarketplaceErrorCode.AppNotFound,
      });
    expect(repository.find).toHaveBeenCalledTimes(4);
  });

  it('forgets the cached app when create-on-write changes; unknown app is not found', async () => {
    repository.find.mockResolvedValue(testApp());
    await service.get('kid_test');
    repository.setCreateCollectionsOnWrite.mockResolvedValue(true);
    await service.setCreateCollectionsOnWrite('kid_test', true);
    expect(repository.setCreateCollectionsOnWrite).toHaveBeenCalledWith(
      'kid_test',
      true,
    );
    await service.get('kid_test');
    expect(repository.find).toHaveBeenCalledTimes(2);

    repository.setCreateCollectionsOnWrite.mockResolvedValue(false);
    await expect(
      service.setCreateCollectionsOnWrite('kid_none', false),
    ).rejects.toMatchObject({ code: MarketplaceErrorCode.AppNotFound });
  });
});
