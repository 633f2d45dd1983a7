import { RateLimiter } from './rate-limiter';

describe('RateLimiter', () => {
  const now = new Date('2026-11-22T10:00:45.500Z');
  const demand = (entries: Array<[string, number]>) => new Map(entries);

  it('refuses only what the shared counts say the flush would refuse, per category', () => {
    const limiter = new RateLimiter(10);
    expect(limiter.exceeded(1, demand([['error', 5]]), now)).toEqual([]);
    limiter.observe(
      [
        { keyId: 1, category: 'error', quantity: 8 },
        { keyId: 1, category: 'session', quantity: 11 },
      ],
      now,
    );
    expect(limiter.exceeded(1, demand([['error', 2]]), now)).toEqual([]);
    expect(limiter.exceeded(1, demand([['error', 3]]), now)).toEqual(['error']);
    expect(
      limiter.exceeded(
        1,
        demand([
          ['session', 1],
          ['internal', 1],
          ['error', 3],
        ]),
        now,
      ),
    ).toEqual(['error', 'session']);
    expect(limiter.exceeded(2, demand([['error', 3]]), now)).toEqual([]);
    expect(limiter.reached(1, ['error', 'session'], now)).toEqual(['session']);
    // A new minute starts from zero.
    expect(
      limiter.exceeded(
        1,
        demand([['session', 3]]),
        new Date('2026-11-22T10:01:00.000Z'),
      ),
    ).toEqual([]);
  });

  it('is off at 0 and tells how long until the window ends', () => {
    const off = new RateLimiter(0);
    off.observe([{ keyId: 1, category: 'error', quantity: 1_000_000 }], now);
    expect(off.exceeded(1, demand([['error', 1]]), now)).toEqual([]);
    expect(RateLimiter.retryAfterSeconds(now)).toBe(15);
    expect(
      RateLimiter.retryAfterSeconds(new Date('2026-11-22T10:00:59.999Z')),
    ).toBe(1);
  });
});
