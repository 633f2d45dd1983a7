import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { newTestService } from '@quitanda/testing';

import { TEST_OPTIONS } from '../../testing/marketplace-test-module';
import { masterOf, testApp } from '../../testing/principals';
import { CollectionsService } from '../app-collections/collections.service';
import { AppsService } from '../apps/apps.service';
import type { CollectionSettings } from '../collections/collection-settings';
import { compileCollection } from '../collections/compiled-collection';
import { FilesRepository } from '../files/files.repository';
import type { StoredFile } from '../files/files.repository';
import { FilesService } from '../files/files.service';
import { MARKETPLACE_OPTIONS } from '../common/marketplace.constants';
import {
  MarketplaceError,
  MarketplaceErrorCode,
} from '../common/marketplace.errors';
import { RecordsRepository } from '../records/records.repository';
import { UsersRepository } from '../users/users.repository';
import { KinveyImportService, NO_PASSWORD } from './kinvey-import.service';
import type { ImportListener } from './kinvey-import.service';

const ECT = '2020-01-01T00:00:00.000Z';
const LMT = '2021-01-01T00:00:00.000Z';
const SETTINGS: Record<string, CollectionSettings> = {
  product: {
    schema: {
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string' } },
    },
  },
  offer: {
    references: [
      { field: 'id_producer', to: 'user' },
      { field: 'product', to: 'collection', collection: 'product' },
    ],
  },
};

describe('KinveyImportService', () => {
  let dir: string;
  let service: KinveyImportService;
  let users: jest.Mocked<UsersRepository>;
  let files: jest.Mocked<FilesRepository>;
  let records: jest.Mocked<RecordsRepository>;
  let collections: jest.Mocked<CollectionsService>;
  let fileRefs: jest.Mocked<FilesService>;
  let listener: jest.Mocked<ImportListener>;
  let apps: jest.Mocked<AppsService>;

  const write = (name: string, value: unknown) =>
    writeFile(join(dir, name), JSON.stringify(value));

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kinvey-import-spec-'));
    const built = await newTestService(KinveyImportService, [
      {
        provide: MARKETPLACE_OPTIONS,
        useValue: { ...TEST_OPTIONS, maxUploadBytes: 8 },
      },
    ]);
    service = built.sut;
    users = built.mock(UsersRepository);
    files = built.mock(FilesRepository);
    records = built.mock(RecordsRepository);
    collections = built.mock(CollectionsService);
    fileRefs = built.mock(FilesService);
    apps = built.mock(AppsService);
    apps.get.mockResolvedValue(testApp());
    collections.declared.mockImplementation(async (_appKey, name) =>
      compileCollection(name, SETTINGS[name] ?? {}),
    );
    records.existingIds.mockResolvedValue(new Set());
    records.userExists.mockResolvedValue(true);
    records.find.mockResolvedValue({ _id: 'found' });
    listener = { progress: jest.fn(), rejected: jest.fn() };
  });

  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('fails at once for an unknown app', async () => {
    apps.get.mockRejectedValue(MarketplaceError.appNotFound('kid_x'));
    await expect(
      service.importDirectory('kid_x', dir, listener),
    ).rejects.toMatchObject({ code: MarketplaceErrorCode.AppNotFound });
    expect(collections.declared).not.toHaveBeenCalled();
  });

  it('imports users, then files, then collections that reference none before those that do', async () => {
    const order: string[] = [];
    users.findById.mockImplementation(
      async () => (order.push('user'), undefined),
    );
    files.find.mockImplementation(async () => (order.push('file'), undefined));
    files.save.mockImplementation(
      async (_a, id) => ({ id, generation: 1 }) as StoredFile,
    );
    files.append.mockResolvedValue({ kind: 'stored', file: {} as StoredFile });
    records.insert.mockImplementation(
      async (record) => (order.push(record.collection), true),
    );
    await mkdir(join(dir, '_blob'));
    await writeFile(join(dir, '_blob', 'f1'), 'bytes');
    await write('offer.json', [{ _id: 'o1' }]);
    await write('product.json', [{ _id: 'p1', name: 'Tomate' }]);
    await write('_blob.json', [{ _id: 'f1' }]);
    await write('user.json', [{ _id: 'u1', username: 'ana' }]);
    await writeFile(join(dir, 'notes.txt'), 'not a collection');

    await expect(
      service.importDirectory('kid_test', dir, listener),
    ).resolves.toEqual({
      'user.json': { imported: 1, unchanged: 0, rejected: 0 },
      '_blob.json': { imported: 1, unchanged: 0, rejected: 0 },
      'product.json': { imported: 1, unchanged: 0, rejected: 0 },
      'offer.json': { imported: 1, unchanged: 0, rejected: 0 },
    });
    expect(order).toEqual(['user', 'file', 'product', 'offer']);
    expect(collections.declared.mock.calls).toEqual([
      ['kid_test', 'offer'],
      ['kid_test', 'product'],
    ]);
    expect(listener.progress).toHaveBeenCalledWith('offer.json', {
      imported: 1,
      unchanged: 0,
      rejected: 0,
    });
  });

  describe('users', () => {
    it('keeps id, _acl and _kmd, without a password anyone could match', async () => {
      await write('user.json', [
        {
          _id: 'u1',
          username: 'ana',
          password: 'secret!',
          verifieduser: true,
          city: 'Recife',
          _acl: { gr: false },
          _kmd: { ect: ECT, lmt: LMT, authtoken: 'x' },
        },
        { _id: 'u2', username: 'bia' },
      ]);
      await service.importDirectory('kid_test', dir, listener);
      expect(users.insert).toHaveBeenCalledWith(
        'kid_test',
        {
          id: 'u1',
          username: 'ana',
          passwordHash: NO_PASSWORD,
          doc: {
            _id: 'u1',
            username: 'ana',
            city: 'Recife',
            verifieduser: true,
            _acl: { gr: false, creator: 'u1' },
            _kmd: { ect: ECT, lmt: LMT },
          },
        },
        new Date(LMT),
      );
      const second = users.insert.mock.calls[1]?.[1];
      expect(second?.doc).toMatchObject({
        verifieduser: false,
        _acl: { creator: 'u2' },
      });
      const kmd = second?.doc['_kmd'] as { ect: string; lmt: string };
      expect(kmd.lmt).toBe(kmd.ect);
    });

    it('leaves users already there and rejects bad ones, each with its reason and index', async () => {
      users.findById.mockImplementation(async (_appKey, id) =>
        id === 'old' ? ({ id } as never) : undefined,
      );
      await write('user.json', [
        { _id: 'old', username: 'x' },
        { _id: 'kid_other', username: 'y' },
        { _id: 'a b', username: 'z' },
        'not an object',
        { _id: 'u3' },
        { _id: 'u4', username: 'w', _kmd: { ect: 'yesterday' } },
        { _id: 'u5', username: 'v' },
      ]);
      await expect(
        service.importDirectory('kid_test', dir, listener),
      ).resolves.toEqual({
        'user.json': { imported: 1, unchanged: 1, rejected: 5 },
      });
      expect(
        listener.rejected.mock.calls.map(([file, index, id]) => [
          file,
          index,
          id,
        ]),
      ).toEqual([
        ['user.json', 1, 'kid_other'],
        ['user.json', 2, 'a b'],
        ['user.json', 3, undefined],
        ['user.json', 4, 'u3'],
        ['user.json', 5, 'u4'],
      ]);
      const reasons = listener.rejected.mock.calls.map((call) => call[3]);
      expect(reasons[0]).toMatch(/reserved/);
      expect(reasons[1]).toMatch(/^_id must be/);
      expect(reasons[2]).toBe('not a JSON object');
      expect(reasons[3]).toMatch(/username is required/);
      expect(reasons[4]).toBe('_kmd.ect must be an ISO 8601 time');
      expect(users.insert).toHaveBeenCalledTimes(1);
    });
  });

  describe('files', () => {
    beforeEach(async () => {
      await mkdir(join(dir, '_blob'));
      await writeFile(join(dir, '_blob', 'f1'), 'abcd');
      files.find.mockResolvedValue(undefined);
      files.save.mockImplementation(
        async (_a, id) => ({ id, generation: 5 }) as StoredFile,
      );
      files.append.mockResolvedValue({
        kind: 'stored',
        file: {} as StoredFile,
      });
    });

    it('stores the metadata with the size of the bytes, then the bytes from the start', async () => {
      await write('_blob.json', [
        {
          _id: 'f1',
          _public: true,
          size: 999,
          _downloadURL: 'https://old',
          _expiresAt: 'x',
          _acl: { creator: 'u1' },
          _kmd: { ect: ECT, lmt: LMT },
        },
      ]);
      await service.importDirectory('kid_test', dir, listener);
      expect(files.save).toHaveBeenCalledWith(
        'kid_test',
        'f1',
        {
          _id: 'f1',
          _filename: 'f1',
          mimeType: 'application/octet-stream',
          _public: true,
          _acl: { creator: 'u1' },
          _kmd: { ect: ECT, lmt: LMT },
          size: 4,
        },
        'u1',
        4,
        new Date(LMT),
      );
      expect(files.append).toHaveBeenCalledWith('kid_test', 'f1', 5, {
        offset: 0,
        data: Buffer.from('abcd'),
        restart: false,
        size: 4,
      });
    });

    it('leaves complete files, rejects missing or oversized bytes, and stops when a file changes underneath', async () => {
      await writeFile(join(dir, '_blob', 'big'), '123456789');
      files.find.mockImplementation(async (_a, id) =>
        id === 'f1' ? ({ storedBytes: 4 } as StoredFile) : undefined,
      );
      await write('_blob.json', [
        { _id: 'f1' },
        { _id: 'none' },
        { _id: 'big' },
      ]);
      await expect(
        service.importDirectory('kid_test', dir, listener),
      ).resolves.toEqual({
        '_blob.json': { imported: 0, unchanged: 1, rejected: 2 },
      });
      expect(listener.rejected.mock.calls.map((call) => call[3])).toEqual([
        'no bytes in _blob/none',
        '9 bytes exceed MARKETPLACE_MAX_UPLOAD_BYTES (8)',
      ]);
      expect(files.save).not.toHaveBeenCalled();

      files.find.mockResolvedValue(undefined);
      files.append.mockResolvedValue({ kind: 'gone' });
      await write('_blob.json', [{ _id: 'f1' }]);
      await expect(
        service.importDirectory('kid_test', dir, listener),
      ).rejects.toThrow('_blob/f1 changed while it was imported');
    });
  });

  describe('records', () => {
    it('inserts each new record with its _acl and times, app-created when it names no creator', async () => {
      await write('product.json', [
        {
          _id: 'p1',
          name: 'Tomate',
          _kmd: { ect: ECT, lmt: LMT },
          img: { _type: 'KinveyFile', _id: 'f1', _downloadURL: 'x' },
        },
        { _id: 'p2', name: 'Alface', _acl: { creator: 'u1', gr: false } },
      ]);
      await service.importDirectory('kid_test', dir, listener);
      const doc = {
        _id: 'p1',
        name: 'Tomate',
        img: { _type: 'KinveyFile', _id: 'f1' },
        _acl: { creator: 'kid_test' },
        _kmd: { ect: ECT, lmt: LMT },
      };
      expect(fileRefs.checkRefs).toHaveBeenCalledWith(masterOf(), [doc]);
      expect(records.insert).toHaveBeenCalledWith(
        expect.objectContaining({
          appKey: 'kid_test',
          collection: 'product',
          id: 'p1',
          doc,
          creator: 'kid_test',
          now: new Date(LMT),
        }),
      );
      expect(records.insert.mock.calls[1]?.[0]).toMatchObject({
        creator: 'u1',
        doc: { _acl: { creator: 'u1', gr: false } },
      });
    });

    it('asks once per batch which are there, and leaves those', async () => {
      records.existingIds.mockResolvedValue(new Set(['p1']));
      await write('product.json', [
        { _id: 'p1', name: 'x' },
        { _id: 'p2', name: 'y' },
        'junk',
      ]);
      await expect(
        service.importDirectory('kid_test', dir, listener),
      ).resolves.toEqual({
        'product.json': { imported: 1, unchanged: 1, rejected: 1 },
      });
      expect(records.existingIds).toHaveBeenCalledTimes(1);
      expect(records.existingIds).toHaveBeenCalledWith('kid_test', 'product', [
        'p1',
        'p2',
      ]);
    });

    it('rejects records the rules refuse or whose references are not imported', async () => {
      records.userExists.mockImplementation(async (_a, id) => id === 'u1');
      records.find.mockResolvedValue(undefined);
      fileRefs.checkRefs.mockImplementation(async (_p, [doc]) => {
        if (doc?.['_id'] === 'o4')
          throw MarketplaceError.badRequest('No such file.', 'f9');
      });
      await write('product.json', [{ _id: 'p1' }]);
      await write('offer.json', [
        { _id: 'o1', id_producer: 'ghost' },
        { _id: 'o2', id_producer: 'u1', product: 'p0' },
        { _id: 'o3', id_producer: 7 },
        { _id: 'o4', id_producer: 'u1' },
        { _id: 'o5', id_producer: 'u1' },
      ]);
      await expect(
        service.importDirectory('kid_test', dir, listener),
      ).resolves.toEqual({
        'product.json': { imported: 0, unchanged: 0, rejected: 1 },
        'offer.json': { imported: 1, unchanged: 0, rejected: 4 },
      });
      expect(listener.rejected.mock.calls.map((call) => call[3])).toEqual([
        expect.stringMatching(/name is required/),
        'id_producer ghost is not a user of this app (import user.json first)',
        'product p0 is not a record of product of this app (import product.json first)',
        'id_producer 7 is not a user of this app (import user.json first)',
        'No such file. (f9)',
      ]);
      expect(records.insert).toHaveBeenCalledTimes(1);
    });
  });
});
