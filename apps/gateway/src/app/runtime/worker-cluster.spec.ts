import { restartDelayMs } from './worker-cluster';

describe('restartDelayMs', () => {
  it('replaces a lone crash at once and backs off a crash loop up to 30 s', () => {
    expect(restartDelayMs(1)).toBe(0);
    expect(restartDelayMs(2)).toBe(500);
    expect(restartDelayMs(3)).toBe(1_000);
    expect(restartDelayMs(6)).toBe(8_000);
    expect(restartDelayMs(8)).toBe(30_000);
    expect(restartDelayMs(50)).toBe(30_000);
  });
});
