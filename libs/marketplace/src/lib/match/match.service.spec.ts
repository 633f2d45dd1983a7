import { newTestService } from '@quitanda/testing';

import { appCaller, masterOf, userCaller } from '../../testing/principals';
import { CollectionsService } from '../app-collections/collections.service';
import type { PermissionLevel } from '../collections/collection-settings';
import { compileCollection } from '../collections/compiled-collection';
import { MarketplaceErrorCode } from '../common/marketplace.errors';
import type { OfferRow } from './match';
import { MatchRepository } from './match.repository';
import { MatchService } from './match.service';

const offer = (
  name: string,
  measurement: string,
  price: string,
  producer = 'p2',
): OfferRow => ({
  id_producer: producer,
  collection: 'availableAssortment',
  record_id: `r-${producer}`,
  item: { name, measurement, quantity: '10', price },
});

describe('MatchService', () => {
  let service: MatchService;
  let repository: jest.Mocked<MatchRepository>;
  /** The app's assortment collections and their levels (absent: undeclared). */
  let levels: Record<string, PermissionLevel>;

  beforeEach(async () => {
    const built = await newTestService(MatchService);
    service = built.sut;
    repository = built.mock(MatchRepository);
    repository.offers.mockResolvedValue([]);
    levels = {
      assortment: 'shared',
      availableAssortment: 'shared',
      requiredAssortment: 'shared',
    };
    built
      .mock(CollectionsService)
      .find.mockImplementation(async (_appKey, name) =>
        levels[name]
          ? compileCollection(name, { permissions: levels[name] })
          : undefined,
      );
  });

  const shared = (reader: string) => ({ readableBy: reader, privately: false });

  it('matches the required items, asking once per product name, for the calling user', async () => {
    repository.offers.mockResolvedValue([
      offer('Tomate', 'kg', '4'),
      // Same name, other measurement: not what was asked for.
      offer('tomate', 'un', '1'),
    ]);
    const { matches } = await service.match(userCaller('p1'), {
      required: [
        { name: ' Tomate ', measurement: 'kg', quantity: '5' },
        { name: 'tomate', measurement: 'kg', quantity: '20' },
      ],
    });
    expect(repository.offers).toHaveBeenCalledWith(
      'kid_test',
      ['tomate'],
      'p1',
      new Map([
        ['availableAssortment', shared('p1')],
        ['assortment', shared('p1')],
      ]),
    );
    expect(
      matches.map((m) => m.offers.map((o) => [o.price, o.covers])),
    ).toEqual([[['4', true]], [['4', false]]]);
  });

  it('reads the needs of id_producer and leaves that producer out of the offers', async () => {
    repository.neededItems.mockResolvedValue([
      { name: 'Alface', measurement: 'un', quantity: '3' },
      { measurement: 'kg' },
    ]);
    repository.offers.mockResolvedValue([offer('alface', 'un', '2')]);
    const { matches } = await service.match(masterOf(), {
      id_producer: 'p9',
    });
    const all = { readableBy: undefined, privately: false };
    expect(repository.neededItems).toHaveBeenCalledWith(
      'kid_test',
      'p9',
      new Map([
        ['requiredAssortment', all],
        ['assortment', all],
      ]),
    );
    expect(repository.offers).toHaveBeenCalledWith(
      'kid_test',
      ['alface'],
      'p9',
      new Map([
        ['availableAssortment', all],
        ['assortment', all],
      ]),
    );
    expect(matches).toHaveLength(1);
    expect(matches[0]?.offers).toHaveLength(1);
  });

  it('reads each collection at its own level, and none the app did not declare', async () => {
    levels = { availableAssortment: 'private', requiredAssortment: 'full' };
    repository.neededItems.mockResolvedValue([
      { name: 'Caju', measurement: 'kg', quantity: '1' },
    ]);
    await service.match(userCaller('p1'), { id_producer: 'p2' });
    expect(repository.neededItems).toHaveBeenCalledWith(
      'kid_test',
      'p2',
      new Map([
        ['requiredAssortment', { readableBy: undefined, privately: false }],
      ]),
    );
    expect(repository.offers).toHaveBeenCalledWith(
      'kid_test',
      ['caju'],
      'p2',
      new Map([['availableAssortment', { readableBy: 'p1', privately: true }]]),
    );
  });

  it('does not query offers when nothing is needed', async () => {
    repository.neededItems.mockResolvedValue([]);
    await expect(
      service.match(userCaller('p1'), { id_producer: 'p1' }),
    ).resolves.toEqual({ matches: [] });
    await expect(service.match(masterOf(), { required: [] })).resolves.toEqual({
      matches: [],
    });
    expect(repository.offers).not.toHaveBeenCalled();
  });

  it('maps bad calls to their errors before reading anything', async () => {
    const refused: Array<[Parameters<MatchService['match']>, string]> = [
      [
        [appCaller(), { required: [] }],
        MarketplaceErrorCode.InsufficientCredentials,
      ],
      [[masterOf(), ['x']], MarketplaceErrorCode.BadRequest],
      [
        [masterOf(), { required: [{ quantity: '1' }] }],
        MarketplaceErrorCode.BadRequest,
      ],
      [
        [masterOf(), { id_producer: 7 }],
        MarketplaceErrorCode.IncompleteRequestBody,
      ],
      [[masterOf(), {}], MarketplaceErrorCode.IncompleteRequestBody],
    ];
    for (const [args, code] of refused)
      await expect(service.match(...args)).rejects.toMatchObject({ code });
    expect(repository.neededItems).not.toHaveBeenCalled();
    expect(repository.offers).not.toHaveBeenCalled();
  });
});
