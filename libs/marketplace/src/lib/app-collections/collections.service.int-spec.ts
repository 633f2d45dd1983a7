import type { TestingModule } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';
import type { DataSource } from 'typeorm';

import { marketplaceTestModule } from '../../testing/marketplace-test-module';
import type { AppRecord } from '../apps/app.types';
import { MARKETPLACE_DATA_SOURCE } from '../common/marketplace.constants';
import { MarketplaceErrorCode } from '../common/marketplace.errors';
import { KeepDeltaSetsOfDeclaredCollections1795904317000 } from '../persistence/migrations/1795904317000-KeepDeltaSetsOfDeclaredCollections';
import { CollectionsRepository } from './collections.repository';
import { CollectionsService } from './collections.service';

function app(appKey: string, createCollectionsOnWrite = false): AppRecord {
  return {
    appKey,
    name: appKey,
    environmentName: 'Development',
    appSecretDigest: 'x',
    masterSecretDigest: 'y',
    appCredentialAccess: 'read-create',
    signingKey: 'k',
    createCollectionsOnWrite,
    createdAt: new Date(0),
  };
}

describe('declared collections (database)', () => {
  let database: TestDatabase;
  let module: TestingModule;
  let collections: CollectionsService;

  beforeAll(async () => {
    database = await openTestDatabase();
    module = await marketplaceTestModule(
      database.url,
      [CollectionsRepository, CollectionsService],
      { maxCollections: 2 },
    );
    collections = module.get(CollectionsService);
  });

  afterAll(async () => {
    await module?.close();
    await database?.close();
  });

  it('compiles rules once per settings change, not per request', async () => {
    await collections.create('kid_compile', 'notes', {
      permissions: 'private',
    });
    const first = await collections.resolve(app('kid_compile'), 'notes');
    const again = await collections.resolve(app('kid_compile'), 'notes');
    expect(again).toBe(first);
    expect(first.permissions).toBe('private');
    await collections.update('kid_compile', 'notes', { permissions: 'full' });
    const changed = await collections.resolve(app('kid_compile'), 'notes');
    expect(changed).not.toBe(first);
    expect(changed.permissions).toBe('full');
  });

  it('rereads an app that turned stale with one query, however many requests find it so', async () => {
    await collections.create('kid_herd', 'notes', {});
    const repository = module.get(CollectionsRepository);
    const list = jest.spyOn(repository, 'list');
    try {
      const now = Date.now();
      const clock = jest.spyOn(Date, 'now').mockReturnValue(now + 60_000);
      const resolved = await Promise.all(
        Array.from({ length: 20 }, () =>
          collections.resolve(app('kid_herd'), 'notes'),
        ),
      );
      clock.mockRestore();
      expect(list).toHaveBeenCalledTimes(1);
      expect(new Set(resolved).size).toBe(1);
    } finally {
      list.mockRestore();
    }
  });

  it('holds the per-app limit, even for declarations made by first writes', async () => {
    const writer = app('kid_limit', true);
    await collections.create('kid_limit', 'a', {});
    const stored = async () => 'stored';
    await expect(
      collections.writing(
        'kid_limit',
        await collections.resolve(writer, 'b'),
        stored,
      ),
    ).resolves.toBe('stored');
    const over = collections.writing(
      'kid_limit',
      await collections.resolve(writer, 'c'),
      stored,
    );
    await expect(over).rejects.toMatchObject({
      code: MarketplaceErrorCode.BadRequest,
      message: expect.stringMatching(/at most 2/),
    });
    // Another app has its own allowance.
    await collections.create('kid_other', 'a', {});
    expect((await collections.list('kid_limit')).map((c) => c.name)).toEqual([
      'a',
      'b',
    ]);
  });

  it('answers CollectionNotFound for an undeclared one unless the app creates on write', async () => {
    await expect(
      collections.resolve(app('kid_strict'), 'ghost'),
    ).rejects.toMatchObject({ code: MarketplaceErrorCode.CollectionNotFound });
    const read = await collections.resolve(app('kid_loose', true), 'ghost');
    expect(read.name).toBe('ghost');
    await expect(collections.list('kid_loose')).resolves.toEqual([]);
  });

  it('keeps delta sets off unless the settings turn them on; collections declared before keep theirs (KeepDeltaSetsOfDeclaredCollections)', async () => {
    await collections.create('kid_before', 'old', {});
    await collections.create('kid_before', 'frozen', { deltaSet: false });
    const runner = module
      .get<DataSource>(getDataSourceToken(MARKETPLACE_DATA_SOURCE))
      .createQueryRunner();
    try {
      await new KeepDeltaSetsOfDeclaredCollections1795904317000().up(runner);
    } finally {
      await runner.release();
    }
    const before = app('kid_before');
    expect((await collections.resolve(before, 'old')).deltaSet).toBe(true);
    expect((await collections.resolve(before, 'frozen')).deltaSet).toBe(false);
    await collections.create('kid_after', 'fresh', {});
    await collections.create('kid_after', 'pulled', { deltaSet: true });
    const after = app('kid_after');
    expect((await collections.resolve(after, 'fresh')).deltaSet).toBe(false);
    expect((await collections.resolve(after, 'pulled')).deltaSet).toBe(true);
  });

  it('declares a collection with its first write, in one transaction: a failed write declares nothing', async () => {
    const writer = app('kid_first', true);
    const fresh = await collections.resolve(writer, 'notes');
    expect(fresh.undeclared).toBe(true);
    await expect(
      collections.writing('kid_first', fresh, async () => {
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    await expect(collections.list('kid_first')).resolves.toEqual([]);
    await collections.writing('kid_first', fresh, async () => undefined);
    expect((await collections.list('kid_first')).map((c) => c.name)).toEqual([
      'notes',
    ]);
    const known = await collections.resolve(writer, 'notes');
    expect(known.undeclared).toBeUndefined();
  });
});
