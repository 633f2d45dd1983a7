import { newTestService } from '@quitanda/testing';

import { appCaller, masterOf, userCaller } from '../../testing/principals';
import { CollectionsService } from '../app-collections/collections.service';
import type { PermissionLevel } from '../collections/collection-settings';
import { MarketplaceErrorCode } from '../common/marketplace.errors';
import { UserQueryService } from './user-query.service';
import { UsersRepository } from './users.repository';

describe('UserQueryService', () => {
  let service: UserQueryService;
  let users: jest.Mocked<UsersRepository>;
  let level: PermissionLevel;

  beforeEach(async () => {
    const built = await newTestService(UserQueryService);
    service = built.sut;
    users = built.mock(UsersRepository);
    users.list.mockResolvedValue([]);
    level = 'shared';
    built
      .mock(CollectionsService)
      .userLevel.mockImplementation(async () => level);
  });

  it('hands the parsed find parameters and the reader on to the repository', async () => {
    await service.list(userCaller('u1'), {
      query: '{"city":"Recife"}',
      sort: '{"username":-1}',
      limit: '5',
      skip: '10',
    });
    expect(users.list).toHaveBeenCalledWith('kid_test', {
      readableBy: 'u1',
      privately: false,
      filter: { city: 'Recife' },
      sort: { username: -1 },
      limit: 5,
      skip: 10,
    });
    await service.list(masterOf(), {});
    expect(users.list).toHaveBeenLastCalledWith('kid_test', {
      readableBy: undefined,
      privately: false,
      filter: undefined,
      sort: undefined,
      limit: undefined,
      skip: undefined,
    });
  });

  it('counts the users a find would see, as the caller reads, and refuses app credentials', async () => {
    users.count.mockResolvedValue(3);
    level = 'private';
    await expect(
      service.count(userCaller('u1'), { query: '{"city":"Recife"}' }),
    ).resolves.toBe(3);
    expect(users.count).toHaveBeenCalledWith('kid_test', {
      readableBy: 'u1',
      privately: true,
      filter: { city: 'Recife' },
    });
    await expect(service.count(appCaller(), {})).rejects.toMatchObject({
      code: MarketplaceErrorCode.InsufficientCredentials,
    });
    expect(users.count).toHaveBeenCalledTimes(1);
  });

  it('projects each user onto the fields asked for, keeping _id and _acl', async () => {
    users.list.mockResolvedValue([
      { _id: 'u2', _acl: { creator: 'u2' }, username: 'ana', city: 'Olinda' },
    ]);
    await expect(
      service.list(userCaller('u1'), { fields: 'city' }),
    ).resolves.toEqual([
      { _id: 'u2', _acl: { creator: 'u2' }, city: 'Olinda' },
    ]);
  });

  it('refuses app credentials, a query that is not JSON and a bad limit before reading', async () => {
    await expect(service.list(appCaller(), {})).rejects.toMatchObject({
      code: MarketplaceErrorCode.InsufficientCredentials,
    });
    await expect(
      service.list(masterOf(), { query: '{nope' }),
    ).rejects.toMatchObject({ code: MarketplaceErrorCode.InvalidQuerySyntax });
    await expect(
      service.list(masterOf(), { limit: '-1' }),
    ).rejects.toMatchObject({ code: MarketplaceErrorCode.BadRequest });
    expect(users.list).not.toHaveBeenCalled();
  });

  it('looks up with a filter object only, as the caller reads', async () => {
    const found = [{ _id: 'u3', username: 'bia' }];
    users.list.mockResolvedValue(found);
    await expect(
      service.lookup(userCaller('u1'), { username: 'bia' }),
    ).resolves.toBe(found);
    expect(users.list).toHaveBeenCalledWith('kid_test', {
      readableBy: 'u1',
      privately: false,
      filter: { username: 'bia' },
    });
    for (const body of [null, ['bia'], 'bia'])
      await expect(
        service.lookup(userCaller('u1'), body),
      ).rejects.toMatchObject({
        code: MarketplaceErrorCode.InvalidQuerySyntax,
      });
    await expect(service.lookup(appCaller(), {})).rejects.toMatchObject({
      code: MarketplaceErrorCode.InsufficientCredentials,
    });
    expect(users.list).toHaveBeenCalledTimes(1);
  });

  it('reads privately when the operator made the user collection private', async () => {
    level = 'private';
    await service.list(userCaller('u1'), {});
    await service.lookup(userCaller('u1'), { city: 'Recife' });
    for (const [, find] of users.list.mock.calls)
      expect(find).toMatchObject({ readableBy: 'u1', privately: true });
  });
});
