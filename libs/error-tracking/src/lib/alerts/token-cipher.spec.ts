import { TokenCipher } from './token-cipher';

describe('TokenCipher', () => {
  const cipher = new TokenCipher('first-key-with-enough-entropy-000000');

  it('round-trips a token without storing it in the clear, each time differently', () => {
    const a = cipher.encrypt('s3cret');
    const b = cipher.encrypt('s3cret');
    expect(a).not.toContain('s3cret');
    expect(a).not.toBe(b);
    expect(cipher.decrypt(a)).toBe('s3cret');
    expect(cipher.decrypt(b)).toBe('s3cret');
  });

  it('refuses a value sealed with another key or altered', () => {
    const sealed = cipher.encrypt('s3cret');
    expect(() =>
      new TokenCipher('another-key-with-enough-entropy-0000').decrypt(sealed),
    ).toThrow();
    const parts = sealed.split(':');
    parts[3] = Buffer.from('tampered').toString('base64');
    expect(() => cipher.decrypt(parts.join(':'))).toThrow();
    expect(() => cipher.decrypt('plain')).toThrow('Unknown sealed format');
  });
});
