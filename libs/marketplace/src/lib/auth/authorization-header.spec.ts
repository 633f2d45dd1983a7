import { parseAuthorization } from './authorization-header';

const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

describe('parseAuthorization', () => {
  it('reads Basic name:secret, keeping colons inside the secret', () => {
    expect(parseAuthorization(basic('kid_abc:se:cret'))).toEqual({
      scheme: 'basic',
      name: 'kid_abc',
      secret: 'se:cret',
    });
    expect(
      parseAuthorization(`bAsIc ${Buffer.from('a:b').toString('base64')}`),
    ).toMatchObject({ name: 'a', secret: 'b' });
  });

  it('refuses a NUL in a Basic name or secret (no one is called that)', () => {
    expect(parseAuthorization(basic('kid_abc:se\u0000cret'))).toBeUndefined();
    expect(parseAuthorization(basic('ki\u0000d:secret'))).toBeUndefined();
  });

  it('reads Kinvey tokens case-insensitively', () => {
    expect(parseAuthorization('kinvey abc.def')).toEqual({
      scheme: 'kinvey',
      token: 'abc.def',
    });
  });

  it('takes a single word as a bare secret', () => {
    expect(parseAuthorization('  0123456789abcdef  ')).toEqual({
      scheme: 'bare',
      secret: '0123456789abcdef',
    });
  });

  it('refuses empty, unknown schemes and Basic without a colon', () => {
    expect(parseAuthorization(undefined)).toBeUndefined();
    expect(parseAuthorization('')).toBeUndefined();
    expect(parseAuthorization('Bearer x')).toBeUndefined();
    expect(parseAuthorization(basic('nocolon'))).toBeUndefined();
    expect(parseAuthorization(basic(':secret'))).toBeUndefined();
  });
});
