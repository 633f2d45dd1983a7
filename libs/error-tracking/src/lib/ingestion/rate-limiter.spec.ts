import { RateLimiter } from './rate-limiter';

describe('RateLimiter', () => {
  const now = new Date('2026-11-22T10:00:45.500Z');

  it('refuses only what the shared count says the flush would refuse', () => {
    const limiter = new RateLimiter(10);
    expect(limiter.exceeded(1, 5, now)).toBe(false);
    limiter.observe(new Map([[1, 8]]), now);
    expect(limiter.exceeded(1, 2, now)).toBe(false);
    expect(limiter.exceeded(1, 3, now)).toBe(true);
    expect(limiter.exceeded(2, 3, now)).toBe(false);
    // A new minute starts from zero.
    expect(limiter.exceeded(1, 3, new Date('2026-11-22T10:01:00.000Z'))).toBe(
      false,
    );
  });

  it('is off at 0 and tells how long until the window ends', () => {
    const off = new RateLimiter(0);
    off.observe(new Map([[1, 1_000_000]]), now);
    expect(off.exceeded(1, 1, now)).toBe(false);
    expect(RateLimiter.retryAfterSeconds(now)).toBe(15);
    expect(
      RateLimiter.retryAfterSeconds(new Date('2026-11-22T10:00:59.999Z')),
    ).toBe(1);
  });
});
