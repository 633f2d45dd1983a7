import { newTotpSecret, totpCode, totpStep } from './totp';

// RFC 6238 appendix B, SHA-1: the secret is ASCII "12345678901234567890".
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('totp', () => {
  it('computes the RFC 6238 test vectors (6 low digits)', () => {
    expect(totpCode(RFC_SECRET, new Date(59_000))).toBe('287082');
    expect(totpCode(RFC_SECRET, new Date(1_111_111_109_000))).toBe('081804');
    expect(totpCode(RFC_SECRET, new Date(20_000_000_000_000))).toBe('353130');
  });

  it('names the step of a code, one step of drift either side', () => {
    const now = new Date(1_111_111_109_000);
    const step = Math.floor(now.getTime() / 30_000);
    const previous = totpCode(RFC_SECRET, new Date(now.getTime() - 30_000));
    expect(totpStep(RFC_SECRET, totpCode(RFC_SECRET, now), now)).toBe(step);
    expect(totpStep(RFC_SECRET, previous, now)).toBe(step - 1);
  });

  it('refuses codes of other times, other secrets and other shapes', () => {
    const now = new Date(1_111_111_109_000);
    const old = totpCode(RFC_SECRET, new Date(now.getTime() - 120_000));
    expect(totpStep(RFC_SECRET, old, now)).toBeUndefined();
    expect(
      totpStep(newTotpSecret(), totpCode(RFC_SECRET, now), now),
    ).toBeUndefined();
    expect(totpStep(RFC_SECRET, ' 81804', now)).toBeUndefined();
    expect(totpStep(RFC_SECRET, '0818040', now)).toBeUndefined();
  });
});
