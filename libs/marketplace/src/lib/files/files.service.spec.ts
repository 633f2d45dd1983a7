import { CLOCK, FixedClock } from '@quitanda/kernel';
import { newTestService } from '@quitanda/testing';

import { TEST_OPTIONS } from '../../testing/marketplace-test-module';
import {
  appCaller,
  masterOf,
  testApp,
  userCaller,
} from '../../testing/principals';
import type { KinveyDoc } from '../kinvey/kinvey-doc';
import { MARKETPLACE_OPTIONS } from '../common/marketplace.constants';
import { MarketplaceErrorCode } from '../common/marketplace.errors';
import { FilesRepository } from './files.repository';
import type { FileText, StoredFile } from './files.repository';
import { FilesService, ttlOf } from './files.service';
import { verifySignature } from './url-signer';

const BASE = 'https://files.example';
const NOW = '2026-06-01T10:00:00.000Z';
const NOW_S = Date.parse(NOW) / 1000;
const ref = (id: string) => ({ _type: 'KinveyFile', _id: id });

function stored(id: string, doc: KinveyDoc = {}): StoredFile {
  return {
    id,
    doc: { _id: id, _acl: { creator: 'u1' }, ...doc },
    size: 4,
    storedBytes: 4,
    generation: 2,
    updatedAt: new Date(0),
  };
}

/** The query of a handed-out URL, checked as the transfer routes check it. */
function grants(url: unknown, purpose: 'upload' | 'download'): boolean {
  const parsed = new URL(String(url));
  const [, , appKey, route, id] = parsed.pathname.split('/');
  const q = parsed.searchParams;
  return (
    route === `_${purpose}` &&
    verifySignature(
      testApp().signingKey,
      purpose,
      String(appKey),
      decodeURIComponent(String(id)),
      Number(q.get('generation')),
      Number(q.get('expires')),
      String(q.get('signature')),
      NOW_S,
    )
  );
}

describe('FilesService', () => {
  let service: FilesService;
  let files: jest.Mocked<FilesRepository>;
  let clock: FixedClock;

  beforeEach(async () => {
    clock = new FixedClock(NOW);
    const built = await newTestService(FilesService, [
      { provide: CLOCK, useValue: clock },
      {
        provide: MARKETPLACE_OPTIONS,
        useValue: { ...TEST_OPTIONS, maxUploadBytes: 1000 },
      },
    ]);
    service = built.sut;
    files = built.mock(FilesRepository);
    files.find.mockResolvedValue(undefined);
    files.save.mockImplementation(async (_app, id, doc) => ({
      id,
      doc,
      size: -1,
      storedBytes: 0,
      generation: 7,
      updatedAt: new Date(0),
    }));
  });

  it('reads a URL lifetime, capped at a week, defaulting when unusable', () => {
    expect(ttlOf('60')).toBe(60);
    expect(ttlOf('99999999')).toBe(7 * 86_400);
    expect(ttlOf('0')).toBe(ttlOf(undefined));
    expect(ttlOf('x')).toBe(ttlOf(undefined));
  });

  it('presents a private file with an expiring URL and a public one with a permanent URL', () => {
    const privately = service.present(testApp(), stored('a b'), BASE, 60);
    expect(privately['_expiresAt']).toBe('2026-06-01T10:01:00.000Z');
    expect(String(privately['_downloadURL'])).toMatch(
      /^https:\/\/files\.example\/blob\/kid_test\/_download\/a%20b\?generation=2&expires=\d+&signature=/,
    );
    expect(grants(privately['_downloadURL'], 'download')).toBe(true);
    expect(grants(privately['_downloadURL'], 'upload')).toBe(false);

    const open = service.present(
      testApp(),
      stored('p', { _public: true }),
      BASE,
      60,
    );
    expect(open).not.toHaveProperty('_expiresAt');
    expect(
      new URL(String(open['_downloadURL'])).searchParams.get('expires'),
    ).toBe('0');
    expect(grants(open['_downloadURL'], 'download')).toBe(true);
  });

  describe('createOrReplace', () => {
    it('creates the metadata with the caller as creator and hands out an upload URL', async () => {
      const reply = await service.createOrReplace(
        userCaller('u1'),
        undefined,
        {
          _id: 'f1',
          _filename: 'a.png',
          size: 4,
          _public: true,
          _acl: { gr: false, creator: 'someone' },
          _downloadURL: 'forged',
          caption: 'kept',
        },
        'image/png',
        BASE,
      );
      expect(files.find).toHaveBeenCalledWith('kid_test', 'f1');
      const doc = {
        _id: 'f1',
        _filename: 'a.png',
        caption: 'kept',
        size: 4,
        mimeType: 'image/png',
        _public: true,
        _acl: { gr: false, creator: 'u1' },
        _kmd: { ect: NOW, lmt: NOW },
      };
      expect(files.save).toHaveBeenCalledWith(
        'kid_test',
        'f1',
        doc,
        'u1',
        4,
        clock.now(),
      );
      expect(reply).toMatchObject({ ...doc, _requiredHeaders: {} });
      expect(String(reply['_uploadURL'])).toContain('generation=7');
      expect(grants(reply['_uploadURL'], 'upload')).toBe(true);
      expect(Date.parse(String(reply['_expiresAt']))).toBeGreaterThan(
        clock.now().getTime(),
      );
    });

    it('generates an id, names the file after it and takes the request type, else octet-stream', async () => {
      await service.createOrReplace(masterOf(), undefined, {}, undefined, BASE);
      const [, id, doc, creator, size] = files.save.mock.calls[0] ?? [];
      expect(id).toMatch(/^[0-9a-f]{24}$/);
      expect(doc).toMatchObject({
        _id: id,
        _filename: id,
        mimeType: 'application/octet-stream',
        _public: false,
      });
      expect(doc).not.toHaveProperty('size');
      expect(creator).toBe('kid_test');
      expect(size).toBe(-1);
      await service.createOrReplace(
        masterOf(),
        'f2',
        { mimeType: '' },
        'text/plain',
        BASE,
      );
      expect(files.save.mock.calls[1]?.[2]).toMatchObject({
        mimeType: 'text/plain',
      });
    });

    it('lets a user granted _acl.w replace the rest but not _acl, _public or the creation time', async () => {
      files.find.mockResolvedValue(
        stored('f1', {
          _public: false,
          _acl: { creator: 'owner', w: ['u2'] },
          _kmd: { ect: '2020-01-01T00:00:00.000Z' },
        }),
      );
      await service.createOrReplace(
        userCaller('u2'),
        'f1',
        { _public: true, _acl: { gr: true }, caption: 'new' },
        'image/png',
        BASE,
      );
      expect(files.save).toHaveBeenCalledWith(
        'kid_test',
        'f1',
        expect.objectContaining({
          caption: 'new',
          _public: false,
          _acl: { creator: 'owner', w: ['u2'] },
          _kmd: { ect: '2020-01-01T00:00:00.000Z', lmt: NOW },
        }),
        'owner',
        -1,
        clock.now(),
      );
    });

    it('maps each refusal to its error and saves nothing', async () => {
      const refusals: Array<
        [Parameters<FilesService['createOrReplace']>, string]
      > = [
        [
          [
            appCaller(testApp({ appCredentialAccess: 'read' })),
            'f',
            {},
            undefined,
            BASE,
          ],
          MarketplaceErrorCode.InsufficientCredentials,
        ],
        [
          [masterOf(), 'f', [], undefined, BASE],
          MarketplaceErrorCode.BadRequest,
        ],
        [
          [masterOf(), 'f', { size: -1 }, undefined, BASE],
          MarketplaceErrorCode.BadRequest,
        ],
        [
          [masterOf(), 'f', { size: 1.5 }, undefined, BASE],
          MarketplaceErrorCode.BadRequest,
        ],
        [
          [masterOf(), 'f', { size: '4' }, undefined, BASE],
          MarketplaceErrorCode.BadRequest,
        ],
        [
          [masterOf(), 'f', { size: 1001 }, undefined, BASE],
          MarketplaceErrorCode.RequestEntityTooLarge,
        ],
        [
          [masterOf(), 'f', { mimeType: 'image/png\r\nX: y' }, undefined, BASE],
          MarketplaceErrorCode.BadRequest,
        ],
        [
          [masterOf(), 'f', {}, 'not a type', BASE],
          MarketplaceErrorCode.BadRequest,
        ],
        [
          [masterOf(), undefined, { _id: 'a/b' }, undefined, BASE],
          MarketplaceErrorCode.BadRequest,
        ],
      ];
      for (const [args, code] of refusals)
        await expect(service.createOrReplace(...args)).rejects.toMatchObject({
          code,
        });
      files.find.mockResolvedValue(stored('f', { _acl: { creator: 'owner' } }));
      await expect(
        service.createOrReplace(userCaller('u2'), 'f', {}, undefined, BASE),
      ).rejects.toMatchObject({
        code: MarketplaceErrorCode.InsufficientCredentials,
      });
      expect(files.save).not.toHaveBeenCalled();
    });
  });

  it('gets a readable file and hides an unreadable one as not found', async () => {
    files.find.mockResolvedValue(
      stored('f1', { _acl: { creator: 'u1', gr: false } }),
    );
    await expect(
      service.get(userCaller('u1'), 'f1', 60, BASE),
    ).resolves.toMatchObject({
      _id: 'f1',
      _expiresAt: '2026-06-01T10:01:00.000Z',
    });
    await expect(
      service.get(userCaller('u2'), 'f1', 60, BASE),
    ).rejects.toMatchObject({
      code: MarketplaceErrorCode.BlobNotFound,
    });
    files.find.mockResolvedValue(undefined);
    await expect(service.get(masterOf(), 'f1', 60, BASE)).rejects.toMatchObject(
      {
        code: MarketplaceErrorCode.BlobNotFound,
      },
    );
    await expect(
      service.get(
        appCaller(testApp({ appCredentialAccess: 'none' })),
        'f1',
        60,
        BASE,
      ),
    ).rejects.toMatchObject({
      code: MarketplaceErrorCode.InsufficientCredentials,
    });
  });

  it('removes what the caller may write, counting what went', async () => {
    files.find.mockResolvedValue(stored('f1'));
    files.remove.mockResolvedValue(true);
    await expect(service.remove(userCaller('u1'), 'f1')).resolves.toBe(1);
    expect(files.remove).toHaveBeenCalledWith('kid_test', 'f1');
    files.remove.mockResolvedValue(false);
    await expect(service.remove(masterOf(), 'f1')).resolves.toBe(0);
    await expect(service.remove(userCaller('u2'), 'f1')).rejects.toMatchObject({
      code: MarketplaceErrorCode.InsufficientCredentials,
    });
    files.find.mockResolvedValue(undefined);
    await expect(service.remove(masterOf(), 'f1')).rejects.toMatchObject({
      code: MarketplaceErrorCode.BlobNotFound,
    });
    expect(files.remove).toHaveBeenCalledTimes(2);
  });

  it('expands references to files the caller reads, in one query, leaving the rest', async () => {
    const docs = [{ image: ref('f1') }, { images: [ref('f2'), ref('f1')] }];
    files.findMany.mockResolvedValue([stored('f1')]);
    const expanded = await service.expand(userCaller('u1'), docs, BASE, 60);
    expect(files.findMany).toHaveBeenCalledTimes(1);
    expect(files.findMany).toHaveBeenCalledWith('kid_test', ['f1', 'f2'], 'u1');
    expect(expanded[0]?.['image']).toMatchObject({
      _id: 'f1',
      _type: 'KinveyFile',
      _downloadURL: expect.stringContaining('/_download/f1?'),
    });
    expect((expanded[1]?.['images'] as unknown[])[0]).toEqual(ref('f2'));

    const plain = [{ name: 'no files' }];
    await expect(service.expand(masterOf(), plain, BASE, 60)).resolves.toBe(
      plain,
    );
    expect(files.findMany).toHaveBeenCalledTimes(1);
  });

  describe('expandTexts', () => {
    const text = (
      id: string,
      version: string,
      isPublic: boolean,
      caption = 'c',
    ): FileText => ({
      id,
      docText: JSON.stringify({ _id: id, _public: isPublic, caption }),
      generation: 2,
      version,
      isPublic,
    });
    const listing = [
      '{"image": {"_id": "pub", "_type": "KinveyFile"}, "n": 1}',
      '{"image": {"_id": "priv", "_type": "KinveyFile"}}',
    ];

    it('joins texts without references untouched, without a query', async () => {
      await expect(
        service.expandTexts(masterOf(), ['{"a": 1}', '{"b": 2}'], BASE, 60),
      ).resolves.toBe('[{"a": 1},{"b": 2}]');
      expect(files.findManyTexts).not.toHaveBeenCalled();
    });

    it('renders a public file once per version for every listing, a private one per listing', async () => {
      files.findManyTexts.mockResolvedValue([
        text('pub', 'v1', true),
        text('priv', 'v1', false),
      ]);
      const first = JSON.parse(
        await service.expandTexts(userCaller('u1'), listing, BASE, 60),
      ) as KinveyDoc[];
      expect(files.findManyTexts).toHaveBeenCalledWith(
        'kid_test',
        ['pub', 'priv'],
        'u1',
      );
      expect(first[0]).toMatchObject({
        n: 1,
        image: { _id: 'pub', caption: 'c', _type: 'KinveyFile' },
      });
      expect(first[1]?.['image']).toMatchObject({
        _expiresAt: '2026-06-01T10:01:00.000Z',
      });

      clock.advance(60_000);
      files.findManyTexts.mockResolvedValue([
        text('pub', 'v1', true, 'changed'),
        text('priv', 'v1', false),
      ]);
      const second = JSON.parse(
        await service.expandTexts(userCaller('u1'), listing, BASE, 60),
      ) as KinveyDoc[];
      expect(second[0]?.['image']).toMatchObject({ caption: 'c' });
      expect(second[1]?.['image']).toMatchObject({
        _expiresAt: '2026-06-01T10:02:00.000Z',
      });

      files.findManyTexts.mockResolvedValue([
        text('pub', 'v2', true, 'changed'),
      ]);
      const third = JSON.parse(
        await service.expandTexts(userCaller('u1'), listing, BASE, 60),
      ) as KinveyDoc[];
      expect(third[0]?.['image']).toMatchObject({ caption: 'changed' });
      expect(third[1]?.['image']).toEqual({ _id: 'priv', _type: 'KinveyFile' });
    });
  });

  describe('checkRefs', () => {
    it('accepts references to files the caller reads, and those the replaced record held', async () => {
      files.findMany.mockResolvedValue([stored('f1')]);
      await service.checkRefs(
        userCaller('u1'),
        [{ a: ref('f1'), b: ref('kept') }],
        {
          old: ref('kept'),
        },
      );
      expect(files.findMany).toHaveBeenCalledWith('kid_test', ['f1'], 'u1');
      await service.checkRefs(userCaller('u1'), [{ a: ref('kept') }], {
        old: ref('kept'),
      });
      await service.checkRefs(masterOf(), [{ none: true }]);
      expect(files.findMany).toHaveBeenCalledTimes(1);
    });

    it('refuses, alike, files that do not exist and files the caller may not read', async () => {
      files.findMany.mockResolvedValue([stored('f1')]);
      await expect(
        service.checkRefs(userCaller('u1'), [
          { a: ref('f1') },
          { b: [ref('hidden'), ref('gone')] },
        ]),
      ).rejects.toMatchObject({
        code: MarketplaceErrorCode.BadRequest,
        debug: 'hidden, gone',
      });
    });
  });
});
