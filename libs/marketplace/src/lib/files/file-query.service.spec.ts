import { newTestService } from '@quitanda/testing';

import { appCaller, testApp, userCaller } from '../../testing/principals';
import { MarketplaceErrorCode } from '../common/marketplace.errors';
import { FileQueryService } from './file-query.service';
import { FilesRepository } from './files.repository';
import type { StoredFile } from './files.repository';
import { FilesService } from './files.service';

const stored = (id: string): StoredFile => ({
  id,
  doc: { _id: id },
  size: 1,
  storedBytes: 1,
  generation: 1,
  updatedAt: new Date(0),
});

describe('FileQueryService', () => {
  let service: FileQueryService;
  let repository: jest.Mocked<FilesRepository>;
  let files: jest.Mocked<FilesService>;

  beforeEach(async () => {
    const built = await newTestService(FileQueryService);
    service = built.sut;
    repository = built.mock(FilesRepository);
    files = built.mock(FilesService);
    files.present.mockImplementation((_app, file) => ({
      _id: file.id,
      presented: true,
    }));
  });

  it('finds as the caller reads and presents each file found, in the order found', async () => {
    repository.list.mockResolvedValue([
      { _id: 'b' },
      { _id: 'gone' },
      { _id: 'a' },
    ]);
    repository.findMany.mockResolvedValue([stored('a'), stored('b')]);
    const found = await service.list(
      userCaller('u1'),
      { query: '{"mimeType":"image/png"}', limit: '2' },
      'http://h',
      60,
    );
    expect(repository.list).toHaveBeenCalledWith('kid_test', {
      readableBy: 'u1',
      filter: { mimeType: 'image/png' },
      sort: undefined,
      limit: 2,
      skip: undefined,
    });
    // The listing already applied the read rights: no second filter.
    expect(repository.findMany).toHaveBeenCalledWith(
      'kid_test',
      ['b', 'gone', 'a'],
      undefined,
    );
    expect(found).toEqual([
      { _id: 'b', presented: true },
      { _id: 'a', presented: true },
    ]);
    expect(files.present).toHaveBeenCalledWith(
      testApp(),
      stored('b'),
      'http://h',
      60,
    );
  });

  it('refuses app credentials without read access and a malformed sort', async () => {
    await expect(
      service.list(
        appCaller(testApp({ appCredentialAccess: 'none' })),
        {},
        '',
        1,
      ),
    ).rejects.toMatchObject({
      code: MarketplaceErrorCode.InsufficientCredentials,
    });
    await expect(
      service.list(userCaller('u1'), { sort: '[' }, '', 1),
    ).rejects.toMatchObject({ code: MarketplaceErrorCode.InvalidQuerySyntax });
    expect(repository.list).not.toHaveBeenCalled();
  });
});
