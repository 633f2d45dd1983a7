import type { TestingModule } from '@nestjs/testing';
import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import { marketplaceTestModule } from '../../testing/marketplace-test-module';
import { AccountTokensRepository } from './account-tokens.repository';

const NOW = new Date('2026-11-26T10:00:00.000Z');
const LATER = new Date('2026-11-26T11:00:00.000Z');

describe('mailed account tokens (database)', () => {
  let database: TestDatabase;
  let module: TestingModule;
  let tokens: AccountTokensRepository;

  beforeAll(async () => {
    database = await openTestDatabase();
    module = await marketplaceTestModule(database.url, [
      AccountTokensRepository,
    ]);
    tokens = module.get(AccountTokensRepository);
  });

  afterAll(async () => {
    await module?.close();
    await database?.close();
  });

  const owner = { appKey: 'kid_tokens', userId: 'u1', email: 'u1@example.com' };

  it('works once, in its app and kind only, until it expires', async () => {
    await tokens.insert('d1', 'password-reset', owner, LATER, NOW);
    const live = (appKey: string, use: boolean) =>
      tokens.live('d1', 'password-reset', appKey, NOW, use);
    await expect(
      tokens.live('d1', 'email-verification', owner.appKey, NOW, false),
    ).resolves.toBeUndefined();
    await expect(live('kid_other', true)).resolves.toBeUndefined();
    await expect(
      tokens.live('d1', 'password-reset', owner.appKey, LATER, false),
    ).resolves.toBeUndefined();
    await expect(live(owner.appKey, false)).resolves.toEqual(owner);
    const uses = await Promise.all([
      live(owner.appKey, true),
      live(owner.appKey, true),
    ]);
    expect(uses.filter(Boolean)).toEqual([owner]);
    await expect(live(owner.appKey, false)).resolves.toBeUndefined();
  });

  it('forgets expired tokens when a new one is stored', async () => {
    await tokens.insert('d2', 'email-verification', owner, LATER, NOW);
    await tokens.insert(
      'd3',
      'email-verification',
      owner,
      new Date(LATER.getTime() + 1),
      LATER,
    );
    await expect(
      tokens.live('d2', 'email-verification', owner.appKey, NOW, false),
    ).resolves.toBeUndefined();
    await expect(
      tokens.live('d3', 'email-verification', owner.appKey, NOW, false),
    ).resolves.toEqual(owner);
  });

  it('stores no second token of a kind for a user within the quiet time', async () => {
    const other = { ...owner, userId: 'u2' };
    const at = (ms: number) => new Date(NOW.getTime() + ms);
    const expires = (ms: number) => new Date(LATER.getTime() + ms);
    const quiet = 60_000;
    await expect(
      tokens.insert('q1', 'password-reset', other, expires(0), at(0), quiet),
    ).resolves.toBe(true);
    await expect(
      tokens.insert(
        'q2',
        'password-reset',
        other,
        expires(59_000),
        at(59_000),
        quiet,
      ),
    ).resolves.toBe(false);
    await expect(
      tokens.insert(
        'q3',
        'email-verification',
        other,
        expires(1_000),
        at(1_000),
        quiet,
      ),
    ).resolves.toBe(true);
    await expect(
      tokens.insert(
        'q4',
        'password-reset',
        other,
        expires(61_000),
        at(61_000),
        quiet,
      ),
    ).resolves.toBe(true);
    await expect(
      tokens.live('q2', 'password-reset', owner.appKey, at(59_000), false),
    ).resolves.toBeUndefined();
  });

  it('stores one token of concurrent requests for the same user and kind within the quiet time', async () => {
    const racer = { ...owner, userId: 'u-race' };
    for (const kind of ['password-reset', 'email-verification'] as const) {
      const stored = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          tokens.insert(`race-${kind}-${i}`, kind, racer, LATER, NOW, 60_000),
        ),
      );
      expect(stored.filter(Boolean)).toHaveLength(1);
    }
  });

  it('gives forgotten-username mail one turn an address a minute, concurrent requests included', async () => {
    const turn = (at: Date) =>
      tokens.takeMailTurn(
        owner.appKey,
        'forgot-username',
        'race@example.com',
        at,
        60_000,
      );
    const turns = await Promise.all(Array.from({ length: 8 }, () => turn(NOW)));
    expect(turns.filter(Boolean)).toHaveLength(1);
    await expect(turn(new Date(NOW.getTime() + 59_000))).resolves.toBe(false);
    await expect(
      tokens.takeMailTurn(
        owner.appKey,
        'password-reset',
        'race@example.com',
        NOW,
        60_000,
      ),
    ).resolves.toBe(true);
    await expect(turn(new Date(NOW.getTime() + 60_000))).resolves.toBe(true);
  });
});
