import {
  SecretMatcher,
  constantTimeEqual,
  digestsEqual,
  hashToken,
  randomToken,
} from './secrets';

describe('secrets', () => {
  it('hashes tokens deterministically without keeping the token', () => {
    const digest = hashToken('glpat-supersecret');
    expect(digest).toBe(hashToken('glpat-supersecret'));
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(digest).not.toContain('supersecret');
  });

  it('compares strings of any length', () => {
    expect(constantTimeEqual('secret', 'secret')).toBe(true);
    expect(constantTimeEqual('secret', 'secreT')).toBe(false);
    expect(constantTimeEqual('secret', 'secret-longer')).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
  });

  it('compares token digests, refusing anything that is not one', () => {
    const digest = hashToken('app-secret');
    expect(digestsEqual(hashToken('app-secret'), digest)).toBe(true);
    expect(digestsEqual(hashToken('app-secreT'), digest)).toBe(false);
    expect(digestsEqual(`${digest}zz`, digest)).toBe(false);
    expect(digestsEqual('', '')).toBe(false);
    expect(digestsEqual('abc', 'abc')).toBe(false);
    const notHex = `${digest.slice(0, 62)}zz`;
    expect(digestsEqual(notHex, notHex)).toBe(false);
  });

  it('makes URL-safe random tokens of the requested entropy', () => {
    const token = randomToken(16);
    expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(randomToken(16)).not.toBe(token);
  });

  it('matches only the configured secret', () => {
    const matcher = new SecretMatcher('write-token');
    expect(matcher.matches('write-token')).toBe(true);
    expect(matcher.matches('write-token ')).toBe(false);
    expect(matcher.matches('')).toBe(false);
  });
});
