import { CLOCK, FixedClock } from '@quitanda/kernel';
import { newTestService } from '@quitanda/testing';

import { projectAccess, projectRecord } from '../../testing/records';
import { ErrorTrackingErrorCode } from '../common/error-tracking.errors';
import { ErrorTrackingDatabase } from '../persistence/error-tracking.database';
import type { Transaction } from '../persistence/error-tracking.database';
import { ClientKeyCache } from './client-key-cache';
import { ClientKeysRepository } from './client-keys.repository';
import type { ClientKeyRecord } from './client-keys.repository';
import { SettingsRepository } from './settings.repository';
import { SettingsService } from './settings.service';

const NOW = '2026-06-01T10:00:00.000Z';
const KEY: ClientKeyRecord = {
  id: 5,
  projectId: 3,
  publicKey: `glet_${'0'.repeat(32)}`,
  active: true,
};

describe('SettingsService', () => {
  let service: SettingsService;
  let db: jest.Mocked<ErrorTrackingDatabase>;
  let setting: jest.Mocked<SettingsRepository>;
  let keys: jest.Mocked<ClientKeysRepository>;
  let cache: jest.Mocked<ClientKeyCache>;
  const tx = {} as Transaction;
  const access = projectAccess();

  beforeEach(async () => {
    const built = await newTestService(SettingsService, [
      { provide: CLOCK, useValue: new FixedClock(NOW) },
    ]);
    service = built.sut;
    db = built.mock(ErrorTrackingDatabase);
    setting = built.mock(SettingsRepository);
    keys = built.mock(ClientKeysRepository);
    cache = built.mock(ClientKeyCache);
    db.transaction.mockImplementation((work) => work(tx));
    keys.create.mockResolvedValue(KEY);
  });

  describe('update', () => {
    it('creates the first key in the same transaction when the integrated backend is enabled without one', async () => {
      const updated = projectRecord({
        trackingActive: true,
        trackingIntegrated: true,
      });
      setting.updateSetting.mockResolvedValue(updated);
      keys.firstActive.mockResolvedValue(undefined);
      await expect(
        service.update(access, { active: true, integrated: true }),
      ).resolves.toBe(updated);
      expect(setting.updateSetting).toHaveBeenCalledWith(
        3,
        { active: true, integrated: true },
        tx,
      );
      expect(keys.firstActive).toHaveBeenCalledWith(3, tx);
      expect(keys.create).toHaveBeenCalledWith(3, new Date(NOW), tx);
    });

    it('creates no key when an active one exists', async () => {
      setting.updateSetting.mockResolvedValue(projectRecord());
      keys.firstActive.mockResolvedValue(KEY);
      await service.update(access, { active: true, integrated: true });
      expect(keys.create).not.toHaveBeenCalled();
    });

    it.each([
      [false, true],
      [true, false],
    ])(
      'creates no key for active=%s integrated=%s',
      async (active, integrated) => {
        setting.updateSetting.mockResolvedValue(projectRecord());
        keys.firstActive.mockResolvedValue(undefined);
        await service.update(access, { active, integrated });
        expect(keys.create).not.toHaveBeenCalled();
      },
    );

    it("forgets the project's cached keys once the change is committed, not before", async () => {
      setting.updateSetting.mockResolvedValue(projectRecord());
      db.transaction.mockImplementation(async (work) => {
        const result = await work(tx);
        expect(cache.evictProject).not.toHaveBeenCalled();
        return result;
      });
      await service.update(access, { active: false, integrated: false });
      expect(cache.evictProject).toHaveBeenCalledWith(3);
    });

    it('keeps the cache when the change fails', async () => {
      setting.updateSetting.mockRejectedValue(new Error('database is down'));
      await expect(
        service.update(access, { active: true, integrated: true }),
      ).rejects.toThrow('database is down');
      expect(cache.evictProject).not.toHaveBeenCalled();
    });
  });

  it('creates a key and forgets a cached miss of it', async () => {
    await expect(service.createKey(access)).resolves.toBe(KEY);
    expect(keys.create).toHaveBeenCalledWith(3, new Date(NOW));
    expect(cache.evictKey).toHaveBeenCalledWith(KEY.publicKey);
  });

  it("deletes a key and forgets the project's cached keys so it stops ingesting", async () => {
    keys.delete.mockResolvedValue(KEY);
    await expect(service.deleteKey(access, 5)).resolves.toBe(KEY);
    expect(keys.delete).toHaveBeenCalledWith(3, 5);
    expect(cache.evictProject).toHaveBeenCalledWith(3);
  });

  it('answers 404 for a key the project lacks and keeps the cache', async () => {
    keys.delete.mockResolvedValue(undefined);
    await expect(service.deleteKey(access, 5)).rejects.toMatchObject({
      code: ErrorTrackingErrorCode.NotFound,
      message: '404 Not found',
    });
    expect(cache.evictProject).not.toHaveBeenCalled();
  });

  it("reads the project's keys and its first active key", async () => {
    keys.list.mockResolvedValue({ keys: [KEY], total: 1 });
    keys.firstActive.mockResolvedValue(KEY);
    await expect(service.listKeys(access, 20, 0)).resolves.toEqual({
      keys: [KEY],
      total: 1,
    });
    await expect(service.firstActiveKey(access)).resolves.toBe(KEY);
    expect(keys.list).toHaveBeenCalledWith(3, 20, 0);
    expect(keys.firstActive).toHaveBeenCalledWith(3);
  });
});
