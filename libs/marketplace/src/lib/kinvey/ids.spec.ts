import { MarketplaceError } from '../common/marketplace.errors';
import { entityIdOf, isEntityId } from './ids';

describe('entityIdOf', () => {
  const now = new Date('2026-11-26T17:00:00Z');

  it('makes ObjectId-like ids: the time in seconds, then randomness', () => {
    const id = entityIdOf(undefined, now);
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(parseInt(id.slice(0, 8), 16)).toBe(now.getTime() / 1000);
  });

  it('never repeats an id across refills of its random pool', () => {
    // 8 random bytes an id, 4 KiB a pool: 5,000 ids refill it 9 times.
    const ids = Array.from({ length: 5_000 }, () => entityIdOf(null, now));
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids.map((id) => id.slice(8, 10))).size).toBeGreaterThan(200);
  });

  it("keeps a client's valid _id and refuses another", () => {
    expect(entityIdOf('client-id_1', now)).toBe('client-id_1');
    expect(isEntityId('client-id_1')).toBe(true);
    expect(() => entityIdOf('no spaces', now)).toThrow(MarketplaceError);
    expect(() => entityIdOf(42, now)).toThrow(MarketplaceError);
  });
});
