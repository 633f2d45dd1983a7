import { CLOCK, FixedClock } from '@quitanda/kernel';
import { newTestService } from '@quitanda/testing';

import { TEST_OPTIONS } from '../../testing/marketplace-test-module';
import { testApp } from '../../testing/principals';
import { AppsService } from '../apps/apps.service';
import { MARKETPLACE_OPTIONS } from '../common/marketplace.constants';
import { MarketplaceErrorCode } from '../common/marketplace.errors';
import { FilesRepository } from './files.repository';
import type { StoredFile } from './files.repository';
import { TransferService } from './transfer.service';
import { NEVER, signature } from './url-signer';

const MAX = 100;
const NOW_S = Date.parse('2026-06-01T10:00:00.000Z') / 1000;

function file(overrides: Partial<StoredFile> = {}): StoredFile {
  return {
    id: 'f1',
    doc: { _id: 'f1' },
    size: 10,
    storedBytes: 0,
    generation: 3,
    updatedAt: new Date(0),
    ...overrides,
  };
}

function signed(generation: number, expires: number, purpose = 'upload') {
  return {
    generation: String(generation),
    expires: String(expires),
    signature: signature(
      testApp().signingKey,
      purpose as 'upload',
      'kid_test',
      'f1',
      generation,
      expires,
    ),
  };
}

const chunk = (start: number, end: number, total: number) =>
  ({ kind: 'chunk', start, end, total }) as const;

describe('TransferService', () => {
  let service: TransferService;
  let files: jest.Mocked<FilesRepository>;

  beforeEach(async () => {
    const built = await newTestService(TransferService, [
      { provide: CLOCK, useValue: new FixedClock(new Date(NOW_S * 1000)) },
      {
        provide: MARKETPLACE_OPTIONS,
        useValue: { ...TEST_OPTIONS, maxUploadBytes: MAX },
      },
    ]);
    service = built.sut;
    files = built.mock(FilesRepository);
    built.mock(AppsService).get.mockResolvedValue(testApp());
    files.find.mockResolvedValue(file());
  });

  describe('authorise', () => {
    it('grants the file a live or permanent signature names', async () => {
      await expect(
        service.authorise('upload', 'kid_test', 'f1', signed(3, NOW_S + 1)),
      ).resolves.toEqual(file());
      await expect(
        service.authorise(
          'download',
          'kid_test',
          'f1',
          signed(3, NEVER, 'download'),
        ),
      ).resolves.toEqual(file());
      expect(files.find).toHaveBeenCalledWith('kid_test', 'f1');
    });

    it('refuses an expired, tampered, repurposed or malformed URL without reading the file', async () => {
      const refused = [
        signed(3, NOW_S),
        { ...signed(3, NOW_S + 60), generation: '4' },
        { ...signed(3, NOW_S + 60), signature: 'x' },
        { ...signed(3, NOW_S + 60), signature: undefined },
        { ...signed(3, NOW_S + 60), expires: `${NOW_S + 60}.0` },
      ];
      for (const params of refused)
        await expect(
          service.authorise('upload', 'kid_test', 'f1', params),
        ).rejects.toMatchObject({
          code: MarketplaceErrorCode.InvalidCredentials,
        });
      await expect(
        service.authorise('download', 'kid_test', 'f1', signed(3, NOW_S + 60)),
      ).rejects.toMatchObject({
        code: MarketplaceErrorCode.InvalidCredentials,
      });
      expect(files.find).not.toHaveBeenCalled();
    });

    it('answers not found for a deleted file or one replaced since signing', async () => {
      files.find.mockResolvedValueOnce(file({ generation: 4 }));
      await expect(
        service.authorise('upload', 'kid_test', 'f1', signed(3, NOW_S + 60)),
      ).rejects.toMatchObject({ code: MarketplaceErrorCode.BlobNotFound });
      files.find.mockResolvedValueOnce(undefined);
      await expect(
        service.authorise('upload', 'kid_test', 'f1', signed(3, NOW_S + 60)),
      ).rejects.toMatchObject({ code: MarketplaceErrorCode.BlobNotFound });
    });
  });

  it('limits an upload to the declared size, the server limit and what a chunk may still add', () => {
    expect(service.limitFor(file({ size: 10 }), undefined)).toBe(10);
    expect(service.limitFor(file({ size: 500 }), undefined)).toBe(MAX);
    expect(service.limitFor(file({ size: -1 }), undefined)).toBe(MAX);
    expect(service.limitFor(file({ size: 10 }), chunk(4, 9, 10))).toBe(6);
    expect(service.limitFor(file({ size: 10 }), chunk(40, 49, 50))).toBe(0);
  });

  it('closes a complete upload to everything but probes', () => {
    const done = file({ size: 10, storedBytes: 10 });
    expect(service.state(done)).toEqual({ complete: true, file: done });
    expect(() => service.requireOpen(done, undefined)).toThrow(
      expect.objectContaining({
        code: MarketplaceErrorCode.InsufficientCredentials,
      }),
    );
    expect(() =>
      service.requireOpen(done, { kind: 'probe', total: 10 }),
    ).not.toThrow();
    // Undeclared size: open until a final chunk fixes it.
    const open = file({ size: -1, storedBytes: 10 });
    expect(service.state(open)).toEqual({ complete: false, storedBytes: 10 });
    expect(() => service.requireOpen(open, undefined)).not.toThrow();
  });

  describe('upload', () => {
    it('answers a probe with the state, checking its total against the declared size', async () => {
      const half = file({ storedBytes: 5 });
      await expect(
        service.upload(
          'kid_test',
          half,
          { kind: 'probe', total: 10 },
          Buffer.alloc(0),
        ),
      ).resolves.toEqual({ complete: false, storedBytes: 5 });
      await expect(
        service.upload(
          'kid_test',
          half,
          { kind: 'probe', total: 11 },
          Buffer.alloc(0),
        ),
      ).rejects.toMatchObject({ code: MarketplaceErrorCode.BadRequest });
      expect(files.append).not.toHaveBeenCalled();
    });

    it('stores a whole body from the start, fixing an undeclared size', async () => {
      const stored = file({ size: 4, storedBytes: 4 });
      files.append.mockResolvedValue({ kind: 'stored', file: stored });
      const body = Buffer.from('abcd');
      await expect(
        service.upload('kid_test', file({ size: -1 }), undefined, body),
      ).resolves.toEqual({ complete: true, file: stored });
      expect(files.append).toHaveBeenCalledWith('kid_test', 'f1', 3, {
        offset: 0,
        data: body,
        restart: true,
        size: 4,
      });
    });

    it('appends a chunk where it starts, fixing the size only with the last one', async () => {
      files.append.mockResolvedValue({
        kind: 'stored',
        file: file({ size: -1, storedBytes: 5 }),
      });
      const five = Buffer.alloc(5);
      await expect(
        service.upload('kid_test', file({ size: -1 }), chunk(0, 4, 10), five),
      ).resolves.toEqual({ complete: false, storedBytes: 5 });
      expect(files.append).toHaveBeenLastCalledWith('kid_test', 'f1', 3, {
        offset: 0,
        data: five,
        restart: false,
        size: -1,
      });
      await service.upload(
        'kid_test',
        file({ size: -1 }),
        chunk(5, 9, 10),
        five,
      );
      expect(files.append).toHaveBeenLastCalledWith('kid_test', 'f1', 3, {
        offset: 5,
        data: five,
        restart: false,
        size: 10,
      });
      await service.upload(
        'kid_test',
        file({ size: 10 }),
        chunk(5, 9, 10),
        five,
      );
      expect(files.append).toHaveBeenLastCalledWith('kid_test', 'f1', 3, {
        offset: 5,
        data: five,
        restart: false,
        size: -1,
      });
    });

    it('answers a chunk that does not continue the stored bytes with where to resume', async () => {
      files.append.mockResolvedValue({
        kind: 'offset',
        file: file({ storedBytes: 2 }),
      });
      await expect(
        service.upload('kid_test', file(), chunk(5, 9, 10), Buffer.alloc(5)),
      ).resolves.toEqual({ complete: false, storedBytes: 2 });
    });

    it('maps a file deleted or completed meanwhile to not found and spent', async () => {
      files.append.mockResolvedValueOnce({ kind: 'gone' });
      await expect(
        service.upload('kid_test', file(), undefined, Buffer.alloc(10)),
      ).rejects.toMatchObject({ code: MarketplaceErrorCode.BlobNotFound });
      files.append.mockResolvedValueOnce({ kind: 'complete' });
      await expect(
        service.upload('kid_test', file(), undefined, Buffer.alloc(10)),
      ).rejects.toMatchObject({
        code: MarketplaceErrorCode.InsufficientCredentials,
      });
    });

    it('refuses bodies past a limit, lengths unlike the range and uploads ending short', async () => {
      const refused: Array<
        [StoredFile, Parameters<TransferService['upload']>[2], number, string]
      > = [
        [
          file({ size: -1 }),
          undefined,
          MAX + 1,
          MarketplaceErrorCode.RequestEntityTooLarge,
        ],
        [
          file({ size: -1 }),
          chunk(0, 4, MAX + 1),
          5,
          MarketplaceErrorCode.RequestEntityTooLarge,
        ],
        [
          file({ size: 10 }),
          undefined,
          11,
          MarketplaceErrorCode.RequestEntityTooLarge,
        ],
        [
          file({ size: 10 }),
          chunk(0, 4, 10),
          4,
          MarketplaceErrorCode.BadRequest,
        ],
        [file({ size: 10 }), undefined, 9, MarketplaceErrorCode.BadRequest],
        [
          file({ size: 10 }),
          chunk(5, 8, 9),
          4,
          MarketplaceErrorCode.BadRequest,
        ],
      ];
      for (const [target, range, length, code] of refused)
        await expect(
          service.upload('kid_test', target, range, Buffer.alloc(length)),
        ).rejects.toMatchObject({ code });
      expect(files.append).not.toHaveBeenCalled();
    });
  });

  it('reads the bytes of a range from the repository', async () => {
    files.read.mockResolvedValue(Buffer.from('bc'));
    await expect(service.read('kid_test', file(), 1, 2)).resolves.toEqual(
      Buffer.from('bc'),
    );
    expect(files.read).toHaveBeenCalledWith('kid_test', 'f1', 1, 2);
  });
});
