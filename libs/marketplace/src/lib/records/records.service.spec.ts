import { CLOCK, FixedClock } from '@quitanda/kernel';
import { newTestService } from '@quitanda/testing';

import {
  appCaller,
  masterOf,
  testApp,
  userCaller,
} from '../../testing/principals';
import { CollectionsService } from '../app-collections/collections.service';
import type { Principal } from '../auth/principal';
import type { CollectionSettings } from '../collections/collection-settings';
import { compileCollection } from '../collections/compiled-collection';
import { PRODUCE_DEFINITION } from '../collections/produce-definition';
import { FilesService } from '../files/files.service';
import {
  MarketplaceError,
  MarketplaceErrorCode,
} from '../common/marketplace.errors';
import { RecordsRepository } from './records.repository';
import type { NewRecord } from './records.repository';
import { RecordsService } from './records.service';

const NOW = '2026-06-01T10:00:00.000Z';

/** Offers: the caller's own (`id_producer`), naming a buyer and a product. */
const OFFERS: CollectionSettings = {
  schema: {
    type: 'object',
    required: ['id_producer'],
    properties: { id_producer: { type: 'string' }, price: { type: 'number' } },
  },
  references: [
    { field: 'id_producer', to: 'user', callerWhenUser: true },
    { field: 'buyer', to: 'user' },
    { field: 'product', to: 'collection', collection: 'product' },
  ],
  deltaSet: true,
};
const SETTINGS: Record<string, CollectionSettings> = {
  offers: OFFERS,
  product: PRODUCE_DEFINITION['product'] ?? {},
  notes: { permissions: 'private' },
  catalogue: { permissions: 'read-only' },
  open: { permissions: 'full' },
  // Delta sets off, as Kinvey's collections are unless turned on.
  frozen: {},
  skus: { unique: [{ field: 'name', fold: ['case'] }, { field: 'code' }] },
};

/** Compiled once: Ajv's compilation is the slow part of a request's rules. */
const COMPILED = new Map(
  Object.entries(SETTINGS).map(([name, settings]) => [
    name,
    compileCollection(name, settings),
  ]),
);

const invalid = (debug: string) => ({
  code: MarketplaceErrorCode.BadRequest,
  debug,
});

describe('RecordsService', () => {
  let service: RecordsService;
  let records: jest.Mocked<RecordsRepository>;
  let files: jest.Mocked<FilesService>;
  let collections: jest.Mocked<CollectionsService>;
  const clock = new FixedClock(NOW);

  beforeEach(async () => {
    const built = await newTestService(RecordsService, [
      { provide: CLOCK, useValue: clock },
    ]);
    service = built.sut;
    records = built.mock(RecordsRepository);
    files = built.mock(FilesService);
    collections = built.mock(CollectionsService);
    collections.resolve.mockImplementation(async (_app, name) => {
      const compiled = COMPILED.get(name);
      if (!compiled) throw MarketplaceError.collectionNotFound(name);
      return compiled;
    });
    collections.writing.mockImplementation((_appKey, _collection, work) =>
      work(),
    );
    records.insert.mockResolvedValue(true);
    records.userExists.mockResolvedValue(true);
    records.find.mockResolvedValue(undefined);
  });

  const inserted = (): NewRecord => {
    const call = records.insert.mock.calls[0];
    if (!call) throw new Error('nothing inserted');
    return call[0];
  };

  describe('reads', () => {
    it('lists as JSON texts with the caller’s read scope and the parsed find', async () => {
      records.listTexts.mockResolvedValue(['{"a":1}']);
      await expect(
        service.listTexts(userCaller('u1'), 'notes', {
          query: '{"a":1}',
          sort: '{"a":1}',
          limit: '2',
          skip: '1',
        }),
      ).resolves.toEqual(['{"a":1}']);
      expect(collections.resolve).toHaveBeenCalledWith(testApp(), 'notes');
      expect(records.listTexts).toHaveBeenCalledWith(
        'kid_test',
        expect.objectContaining({ name: 'notes' }),
        {
          readableBy: 'u1',
          privately: true,
          filter: { a: 1 },
          sort: { a: 1 },
          limit: 2,
          skip: 1,
        },
      );
    });

    it('projects documents onto the fields asked for', async () => {
      records.list.mockResolvedValue([{ _id: 'r1', a: 1, b: 2 }]);
      await expect(
        service.listTexts(masterOf(), 'offers', { fields: 'b' }),
      ).resolves.toEqual(['{"_id":"r1","b":2}']);
      expect(records.listTexts).not.toHaveBeenCalled();
    });

    it('counts with the query only, and lets a user of a "full" collection read everything', async () => {
      records.count.mockResolvedValue(4);
      await expect(
        service.count(userCaller('u1'), 'open', {
          query: '{"a":1}',
          limit: '1',
        }),
      ).resolves.toBe(4);
      expect(records.count).toHaveBeenCalledWith(
        'kid_test',
        expect.objectContaining({ name: 'open' }),
        expect.objectContaining({
          readableBy: undefined,
          privately: false,
          filter: { a: 1 },
          limit: undefined,
        }),
      );
    });

    it('refuses app credentials that may not read, a malformed query and an undeclared collection', async () => {
      const none = appCaller(testApp({ appCredentialAccess: 'none' }));
      await expect(service.listTexts(none, 'offers', {})).rejects.toMatchObject(
        {
          code: MarketplaceErrorCode.InsufficientCredentials,
        },
      );
      await expect(
        service.count(masterOf(), 'offers', { query: '{' }),
      ).rejects.toMatchObject({
        code: MarketplaceErrorCode.InvalidQuerySyntax,
      });
      await expect(service.get(masterOf(), 'nope', 'r1')).rejects.toMatchObject(
        {
          code: MarketplaceErrorCode.CollectionNotFound,
        },
      );
      expect(records.count).not.toHaveBeenCalled();
    });

    it('gets a record from the replica, not found or refused by the collection’s level', async () => {
      const note = { _id: 'r1', _acl: { creator: 'u1' } };
      records.find.mockResolvedValue(note);
      await expect(service.get(userCaller('u1'), 'notes', 'r1')).resolves.toBe(
        note,
      );
      expect(records.find).toHaveBeenCalledWith(
        { appKey: 'kid_test', collection: 'notes', id: 'r1' },
        'replica',
      );
      await expect(
        service.get(userCaller('u2'), 'notes', 'r1'),
      ).rejects.toMatchObject({
        code: MarketplaceErrorCode.InsufficientCredentials,
      });
      records.find.mockResolvedValue(undefined);
      await expect(
        service.get(masterOf(), 'notes', 'r9'),
      ).rejects.toMatchObject({
        code: MarketplaceErrorCode.EntityNotFound,
        debug: 'r9',
      });
    });
  });

  describe('create', () => {
    it('stores the record with server _acl creator and _kmd times, its file references checked', async () => {
      const doc = await service.create(userCaller('u1'), 'offers', {
        _id: 'o1',
        id_producer: 'u1',
        price: 3,
        _acl: { gr: false, creator: 'forged' },
        _kmd: { ect: '1999-01-01T00:00:00.000Z' },
        photo: { _type: 'KinveyFile', _id: 'f1', _downloadURL: 'x' },
      });
      expect(doc).toEqual({
        _id: 'o1',
        id_producer: 'u1',
        price: 3,
        photo: { _type: 'KinveyFile', _id: 'f1' },
        _acl: { gr: false, creator: 'u1' },
        _kmd: { ect: NOW, lmt: NOW },
      });
      expect(collections.resolve).toHaveBeenCalledWith(testApp(), 'offers');
      expect(files.checkRefs).toHaveBeenCalledWith(userCaller('u1'), [doc]);
      expect(records.insert).toHaveBeenCalledWith(
        expect.objectContaining({
          appKey: 'kid_test',
          collection: 'offers',
          id: 'o1',
          doc,
          creator: 'u1',
          now: clock.now(),
        }),
        'u1',
        // A declared collection: no transaction of its own.
        undefined,
      );
    });

    it('generates an id, makes the app the creator of master writes and keeps the unique key', async () => {
      const doc = await service.create(masterOf(), 'product', {
        name: ' Tomate ',
        measurement: 'kg',
      });
      expect(doc['_id']).toMatch(/^[0-9a-f]{24}$/);
      expect(inserted()).toMatchObject({
        creator: 'kid_test',
        uniqueName: 'tomate',
      });
      expect(records.insert.mock.calls[0]?.[1]).toBeUndefined();
    });

    it('hands every unique field’s folded value to the insert', async () => {
      await service.create(masterOf(), 'skus', { name: 'Tomate', code: 'T1' });
      expect(inserted()).toMatchObject({
        uniqueName: 'tomate',
        uniqueField: 'name',
        uniqueValues: [{ field: 'code', value: 'T1' }],
      });
    });

    it('names the first user reference when the insert finds no such user', async () => {
      records.insert.mockResolvedValue(false);
      await expect(
        service.create(masterOf(), 'offers', { id_producer: 'ghost' }),
      ).rejects.toMatchObject(invalid('id_producer'));
    });

    it('checks the other references before writing', async () => {
      records.userExists.mockResolvedValue(false);
      await expect(
        service.create(userCaller('u1'), 'offers', {
          id_producer: 'u1',
          buyer: 'ghost',
        }),
      ).rejects.toMatchObject(invalid('buyer'));
      expect(records.userExists).toHaveBeenCalledWith('kid_test', 'ghost');

      await expect(
        service.create(userCaller('u1'), 'offers', {
          id_producer: 'u1',
          product: 'p0',
        }),
      ).rejects.toMatchObject(invalid('product'));
      expect(records.find).toHaveBeenCalledWith({
        appKey: 'kid_test',
        collection: 'product',
        id: 'p0',
      });
      await expect(
        service.create(userCaller('u1'), 'offers', {
          id_producer: 'u1',
          product: 7,
        }),
      ).rejects.toMatchObject(invalid('product'));
      expect(records.insert).not.toHaveBeenCalled();
    });

    it('answers a reference to a record the writer may not read as one to a missing record, unless the record already held it', async () => {
      const offers = compileCollection('offers', {
        ...OFFERS,
        references: [{ field: 'note', to: 'collection', collection: 'notes' }],
      });
      collections.resolve.mockResolvedValue(offers);
      collections.find.mockImplementation(async (_appKey, name) =>
        COMPILED.get(name),
      );
      // A private note of u2's: not readable by u1.
      const note = { _id: 'n1', _acl: { creator: 'u2', gr: true } };
      records.find.mockImplementation(async (key) =>
        key.collection === 'notes' ? note : undefined,
      );
      await expect(
        service.create(userCaller('u1'), 'offers', {
          id_producer: 'u1',
          note: 'n1',
        }),
      ).rejects.toMatchObject(invalid('note'));
      expect(records.insert).not.toHaveBeenCalled();
      await expect(
        service.create(userCaller('u2'), 'offers', {
          id_producer: 'u2',
          note: 'n1',
        }),
      ).resolves.toMatchObject({ note: 'n1' });
    });

    it('answers a reference to a user the writer may not read, in a private user collection, as one to a missing user', async () => {
      records.insert.mockResolvedValue(true);
      await service.create(userCaller('u1'), 'offers', {
        id_producer: 'u1',
        buyer: 'u2',
      });
      // Shared (the default): no query beyond the existence check.
      expect(records.userReadablePrivately).not.toHaveBeenCalled();
      collections.userLevel.mockResolvedValue('private');
      records.userReadablePrivately.mockResolvedValue(false);
      await expect(
        service.create(userCaller('u1'), 'offers', {
          id_producer: 'u1',
          buyer: 'u2',
        }),
      ).rejects.toMatchObject(invalid('buyer'));
      expect(records.userReadablePrivately).toHaveBeenCalledWith(
        'kid_test',
        'u2',
        'u1',
      );
      await expect(
        service.create(masterOf(), 'offers', { id_producer: 'u2' }),
      ).resolves.toMatchObject({ id_producer: 'u2' });
    });

    it('maps each refusal to its error without writing', async () => {
      const refusals: Array<[Principal, string, unknown, object]> = [
        [
          userCaller('u1'),
          'offers',
          { id_producer: 'u2' },
          invalid('id_producer'),
        ],
        [
          userCaller('u1'),
          'offers',
          {},
          { code: MarketplaceErrorCode.IncompleteRequestBody },
        ],
        [
          userCaller('u1'),
          'offers',
          { id_producer: 'u1', price: 'x' },
          { code: MarketplaceErrorCode.BadRequest },
        ],
        [
          userCaller('u1'),
          'offers',
          [],
          { code: MarketplaceErrorCode.BadRequest },
        ],
        [
          userCaller('u1'),
          'offers',
          { id_producer: 'u1', _id: 'a b' },
          invalid('_id'),
        ],
        [
          userCaller('u1'),
          'catalogue',
          {},
          { code: MarketplaceErrorCode.InsufficientCredentials },
        ],
        [
          appCaller(testApp({ appCredentialAccess: 'read' })),
          'open',
          {},
          { code: MarketplaceErrorCode.InsufficientCredentials },
        ],
      ];
      for (const [principal, name, body, error] of refusals)
        await expect(
          service.create(principal, name, body),
        ).rejects.toMatchObject(error);
      expect(records.insert).not.toHaveBeenCalled();
      files.checkRefs.mockRejectedValue(
        MarketplaceError.badRequest('files', 'f9'),
      );
      await expect(
        service.create(masterOf(), 'catalogue', {
          f: { _type: 'KinveyFile', _id: 'f9' },
        }),
      ).rejects.toMatchObject(invalid('f9'));
      expect(records.insert).not.toHaveBeenCalled();
    });
  });

  it('creates many, each entity succeeding or failing alone, errors by index', async () => {
    records.insert.mockImplementation(async (record) => {
      if (record.id === 'dup') throw MarketplaceError.duplicateId('dup');
      return record.id !== 'nouser';
    });
    const result = await service.createMany(userCaller('u1'), 'offers', [
      { _id: 'ok', id_producer: 'u1' },
      { _id: 'bad', id_producer: 'u2' },
      { _id: 'nouser', id_producer: 'u1' },
      { _id: 'dup', id_producer: 'u1' },
    ]);
    expect(result.entities.map((e) => e?.['_id'] ?? null)).toEqual([
      'ok',
      null,
      null,
      null,
    ]);
    expect(result.errors.map((e) => [e.index, e.code])).toEqual([
      [1, MarketplaceErrorCode.BadRequest],
      [2, MarketplaceErrorCode.BadRequest],
      [3, MarketplaceErrorCode.DuplicateEntity],
    ]);
    expect(result.errors[1]?.errmsg).toMatch(/id_producer$/);
    expect(
      records.insert.mock.calls.map(([r, producer]) => [r.id, producer]),
    ).toEqual([
      ['ok', 'u1'],
      ['nouser', 'u1'],
      ['dup', 'u1'],
    ]);

    records.insert.mockRejectedValue(new Error('connection lost'));
    await expect(
      service.createMany(userCaller('u1'), 'offers', [{ id_producer: 'u1' }]),
    ).rejects.toThrow('connection lost');
  });

  describe('upsert', () => {
    const existing = {
      _id: 'o1',
      id_producer: 'owner',
      _acl: { creator: 'owner', w: ['u2'] },
      _kmd: {
        ect: '2020-01-01T00:00:00.000Z',
        lmt: '2020-01-01T00:00:00.000Z',
      },
      photo: { _type: 'KinveyFile', _id: 'kept' },
    };

    it('creates an absent record under the URL id', async () => {
      await expect(
        service.upsert(userCaller('u1'), 'offers', 'o1', { id_producer: 'u1' }),
      ).resolves.toMatchObject({ created: true, doc: { _id: 'o1' } });
      expect(inserted()).toMatchObject({ id: 'o1', creator: 'u1' });
      expect(records.replace).not.toHaveBeenCalled();
      await expect(
        service.upsert(userCaller('u1'), 'catalogue', 'c1', {}),
      ).rejects.toMatchObject({
        code: MarketplaceErrorCode.InsufficientCredentials,
      });
    });

    it('replaces for one granted _acl.w, keeping creator, creation time and the reference', async () => {
      records.find.mockResolvedValue(existing);
      const { doc, created } = await service.upsert(
        userCaller('u2'),
        'offers',
        'o1',
        {
          id_producer: 'owner',
          price: 5,
          _acl: { gr: true },
        },
      );
      expect(created).toBe(false);
      expect(doc).toEqual({
        _id: 'o1',
        id_producer: 'owner',
        price: 5,
        _acl: { creator: 'owner', w: ['u2'] },
        _kmd: { ect: '2020-01-01T00:00:00.000Z', lmt: NOW },
      });
      expect(records.userExists).toHaveBeenCalledWith('kid_test', 'owner');
      expect(files.checkRefs).toHaveBeenCalledWith(
        userCaller('u2'),
        [doc],
        existing,
      );
      expect(records.replace).toHaveBeenCalledWith(
        expect.objectContaining({ id: 'o1', doc, creator: 'owner' }),
      );
      expect(records.insert).not.toHaveBeenCalled();
    });

    it('keeps a record reference the writer may not read when the record already held it, and refuses a new one', async () => {
      const hidden = { _id: 'p9', _acl: { creator: 'owner', gr: false } };
      records.find.mockImplementation(async (key) =>
        key.collection === 'product' ? hidden : { ...existing, product: 'p9' },
      );
      collections.find.mockImplementation(async (_appKey, name) =>
        COMPILED.get(name),
      );
      records.userExists.mockResolvedValue(true);
      const body = { id_producer: 'owner', product: 'p9' };
      await expect(
        service.upsert(userCaller('u2'), 'offers', 'o1', body),
      ).resolves.toMatchObject({ created: false });
      records.find.mockImplementation(async (key) =>
        key.collection === 'product' ? hidden : existing,
      );
      await expect(
        service.upsert(userCaller('u2'), 'offers', 'o1', body),
      ).rejects.toMatchObject(invalid('product'));
    });

    it('refuses a caller who may not write, another id in the body, another owner and a user that is gone', async () => {
      records.find.mockResolvedValue(existing);
      await expect(
        service.upsert(userCaller('u3'), 'offers', 'o1', {
          id_producer: 'owner',
        }),
      ).rejects.toMatchObject({
        code: MarketplaceErrorCode.InsufficientCredentials,
      });
      await expect(
        service.upsert(masterOf(), 'offers', 'o1', {
          _id: 'o2',
          id_producer: 'owner',
        }),
      ).rejects.toMatchObject(invalid('_id'));
      await expect(
        service.upsert(userCaller('u2'), 'offers', 'o1', { id_producer: 'u3' }),
      ).rejects.toMatchObject(invalid('id_producer'));
      records.userExists.mockResolvedValue(false);
      await expect(
        service.upsert(masterOf(), 'offers', 'o1', { id_producer: 'gone' }),
      ).rejects.toMatchObject(invalid('id_producer'));
      expect(records.replace).not.toHaveBeenCalled();
    });
  });

  describe('deletes', () => {
    it('removes one record the caller may write, stamping the tombstone with the clock', async () => {
      records.find.mockResolvedValue({ _id: 'r1', _acl: { creator: 'u1' } });
      records.deleteOne.mockResolvedValue(1);
      await expect(
        service.remove(userCaller('u1'), 'offers', 'r1'),
      ).resolves.toBe(1);
      expect(records.deleteOne).toHaveBeenCalledWith(
        { appKey: 'kid_test', collection: 'offers', id: 'r1' },
        clock.now(),
      );
      await expect(
        service.remove(userCaller('u2'), 'offers', 'r1'),
      ).rejects.toMatchObject({
        code: MarketplaceErrorCode.InsufficientCredentials,
      });
      records.find.mockResolvedValue(undefined);
      await expect(
        service.remove(masterOf(), 'offers', 'r1'),
      ).rejects.toMatchObject({
        code: MarketplaceErrorCode.EntityNotFound,
      });
      expect(records.deleteOne).toHaveBeenCalledTimes(1);
    });

    it('deletes by query as the level says: a user its own, except in "full" collections', async () => {
      records.deleteMatching.mockResolvedValue(2);
      const query = { query: '{"a":1}' };
      await expect(
        service.removeWhere(userCaller('u1'), 'offers', query),
      ).resolves.toBe(2);
      expect(records.deleteMatching).toHaveBeenLastCalledWith(
        'kid_test',
        expect.objectContaining({ name: 'offers' }),
        { a: 1 },
        'u1',
        false,
        clock.now(),
      );
      await service.removeWhere(userCaller('u1'), 'notes', query);
      expect(records.deleteMatching.mock.lastCall?.slice(3, 5)).toEqual([
        'u1',
        true,
      ]);
      await service.removeWhere(userCaller('u1'), 'open', query);
      expect(records.deleteMatching.mock.lastCall?.slice(3, 5)).toEqual([
        undefined,
        false,
      ]);
      await service.removeWhere(masterOf(), 'catalogue', query);
      expect(records.deleteMatching.mock.lastCall?.slice(3, 5)).toEqual([
        undefined,
        false,
      ]);
    });

    it('refuses a delete by query from app credentials, users of read-only collections, or without a query', async () => {
      await expect(
        service.removeWhere(appCaller(), 'offers', { query: '{}' }),
      ).rejects.toMatchObject({
        code: MarketplaceErrorCode.InsufficientCredentials,
      });
      await expect(
        service.removeWhere(userCaller('u1'), 'catalogue', { query: '{}' }),
      ).rejects.toMatchObject({
        code: MarketplaceErrorCode.InsufficientCredentials,
      });
      for (const params of [{}, { query: '' }])
        await expect(
          service.removeWhere(masterOf(), 'offers', params),
        ).rejects.toMatchObject(invalid('query'));
      expect(records.deleteMatching).not.toHaveBeenCalled();
    });
  });

  it('answers a delta set: changed records since the time and the ids deleted since', async () => {
    records.list.mockResolvedValue([{ _id: 'r1' }]);
    records.tombstonesSince.mockResolvedValue(['r2']);
    await expect(
      service.deltaSet(userCaller('u1'), 'offers', {
        since: '2026-05-01T00:00:00.000Z',
        query: '{"a":1}',
      }),
    ).resolves.toEqual({ changed: [{ _id: 'r1' }], deleted: [{ _id: 'r2' }] });
    const since = new Date('2026-05-01T00:00:00.000Z');
    expect(records.list).toHaveBeenCalledWith(
      'kid_test',
      expect.objectContaining({ name: 'offers' }),
      expect.objectContaining({
        filter: { a: 1 },
        readableBy: 'u1',
        updatedSince: since,
      }),
    );
    // Deletions of records the caller could read, as it reads the changes.
    expect(records.tombstonesSince).toHaveBeenCalledWith(
      'kid_test',
      'offers',
      since,
      expect.objectContaining({ readableBy: 'u1', privately: false }),
    );
  });

  it('refuses delta sets of a collection without them and a since that is no time', async () => {
    await expect(
      service.deltaSet(masterOf(), 'frozen', { since: NOW }),
    ).rejects.toMatchObject({
      code: MarketplaceErrorCode.MissingConfiguration,
    });
    for (const since of [undefined, '', 'yesterday'])
      await expect(
        service.deltaSet(masterOf(), 'offers', { since }),
      ).rejects.toMatchObject({
        code: MarketplaceErrorCode.ParameterValueOutOfRange,
      });
    expect(records.list).not.toHaveBeenCalled();
  });

  it('groups within the caller’s read scope', async () => {
    records.group.mockResolvedValue([{ n: 1 }]);
    const body = { key: { a: true } };
    await expect(
      service.group(userCaller('u1'), 'notes', body),
    ).resolves.toEqual([{ n: 1 }]);
    expect(records.group).toHaveBeenCalledWith(
      'kid_test',
      expect.objectContaining({ name: 'notes' }),
      body,
      { readableBy: 'u1', privately: true },
    );
  });
});
