import { TransportError, TransportErrorKind } from './transport-error';
import {
  DUMMY_PASSWORD_HASH,
  MAX_WAITING_HASHES,
  hashPassword,
  verifyPassword,
} from './passwords';

describe('password hashing', () => {
  it('hashes with argon2id at OWASP parameters and a fresh salt', async () => {
    const first = await hashPassword('correct horse battery staple');
    const second = await hashPassword('correct horse battery staple');
    expect(first).toMatch(
      /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/,
    );
    expect(first).not.toBe(second);
    expect(first).not.toContain('horse');
  });

  it('verifies the right password only', async () => {
    const stored = await hashPassword('pässwörd');
    await expect(verifyPassword('pässwörd', stored)).resolves.toBe(true);
    // Unicode normalisation: the same text typed on another keyboard.
    await expect(verifyPassword('pa\u0308sswo\u0308rd', stored)).resolves.toBe(
      true,
    );
    await expect(verifyPassword('passwörd', stored)).resolves.toBe(false);
    await expect(verifyPassword('', stored)).resolves.toBe(false);
  });

  it('rejects malformed hashes and runs the full cost for unknown users', async () => {
    await expect(verifyPassword('x', 'plain-text')).resolves.toBe(false);
    await expect(verifyPassword('x', '$argon2id$v=19$garbage')).resolves.toBe(
      false,
    );
    await expect(verifyPassword('anything', DUMMY_PASSWORD_HASH)).resolves.toBe(
      false,
    );
  });

  it('refuses absurdly long passwords', async () => {
    await expect(hashPassword('x'.repeat(2000))).rejects.toThrow(RangeError);
    await expect(
      verifyPassword('x'.repeat(2000), await hashPassword('x')),
    ).resolves.toBe(false);
  });

  it('refuses checks past the queue with a 429, never a wrong-password answer', async () => {
    const stored = await hashPassword('right');
    // More than can run and wait at once, all asked in the same turn.
    const asked = Array.from({ length: MAX_WAITING_HASHES + 8 }, () =>
      verifyPassword('right', stored).then(
        (ok) => ({ ok }),
        (error: unknown) => ({ error }),
      ),
    );
    const answers = await Promise.all(asked);
    const refused = answers.filter((a) => 'error' in a);
    expect(refused.length).toBeGreaterThanOrEqual(4);
    for (const answer of refused) {
      const error = (answer as { error: unknown }).error;
      expect(error).toBeInstanceOf(TransportError);
      expect(error).toMatchObject({
        kind: TransportErrorKind.TooManyRequests,
        retryAfterSeconds: 1,
      });
    }
    // Every check that ran found the password right.
    expect(answers.filter((a) => 'ok' in a && a.ok !== true)).toEqual([]);
    await expect(verifyPassword('right', stored)).resolves.toBe(true);
  });
});
