import { Secret, TOTP } from 'otpauth';

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

  it('makes keys of letters and digits, which clients reading the key as text decode intact', () => {
    const keys = Array.from({ length: 50 }, () => newTotpSecret());
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) {
      const bytes = Buffer.from(Secret.fromBase32(key).buffer);
      expect(bytes.toString('latin1')).toMatch(/^[A-Za-z0-9]{32}$/);
      // What a client that reads the key as UTF-8 text keys its HMAC with.
      const asText = Buffer.from(bytes.toString('utf8'), 'latin1');
      const now = new Date(1_111_111_109_000);
      const code = new TOTP({
        secret: new Secret({
          buffer: asText.buffer.slice(
            asText.byteOffset,
            asText.byteOffset + asText.length,
          ),
        }),
      }).generate({ timestamp: now.getTime() });
      expect(totpStep(key, code, now)).toBe(Math.floor(now.getTime() / 30_000));
    }
  });
});
