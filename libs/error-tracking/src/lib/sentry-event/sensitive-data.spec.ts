import {
  FILTERED,
  isSensitiveKey,
  scrubText,
  scrubTextParts,
  scrubValue,
} from './sensitive-data';

describe('sensitive data (Sentry default scrubbers)', () => {
  it.each([
    'password',
    'user_password',
    'PASSWD',
    'the_secret',
    'api_key',
    'apiKey',
    'X-Api-Key',
    'Authorization',
    'Proxy-Authorization',
    'X-Sentry-Auth',
    'credentials',
    'mysql_pwd',
    'privatekey',
    'private_key',
    'access_token',
    'Private-Token',
    'sessionid',
    'csrf_token',
    'XSRF-TOKEN',
    'otp',
    'two_factor',
    'two-factor',
  ])('takes %s for a sensitive key', (key) => {
    expect(isSensitiveKey(key)).toBe(true);
  });

  it.each(['sku', 'email', 'username', 'id', 'otp_sent', 'note', 'host'])(
    'takes %s for a plain key',
    (key) => {
      expect(isSensitiveKey(key)).toBe(false);
    },
  );

  it('filters a text naming a credential whole, as Relay does', () => {
    expect(scrubText('my password is hunter2')).toBe(FILTERED);
    expect(scrubText('login with api_key=abc')).toBe(FILTERED);
    expect(scrubText('token=abc')).toBe(FILTERED);
    expect(scrubText('token: abc')).toBe(FILTERED);
    // The word alone is too common to filter.
    expect(scrubText('the token expired')).toBe('the token expired');
    for (const plain of ['', 'true', 'false', 'null', 'undefined'])
      expect(scrubText(plain)).toBe(plain);
  });

  it('masks bearer tokens, card numbers, SSNs, URL passwords and PEM keys inside a text', () => {
    expect(scrubText('sent Bearer eyJhbGciOi.x.y to shop')).toBe(
      `sent ${FILTERED} to shop`,
    );
    expect(scrubText('card 4111 1111 1111 1111 declined')).toBe(
      `card ${FILTERED} declined`,
    );
    expect(scrubText('card 5500-0000-0000-0004')).toBe(`card ${FILTERED}`);
    expect(scrubText('ssn 078-05-1120')).toBe(`ssn ${FILTERED}`);
    expect(scrubText('order 12345678 of 3 items')).toBe(
      'order 12345678 of 3 items',
    );
    expect(scrubTextParts('postgres://shop:s3cr3t@db:5432/shop')).toBe(
      `postgres://shop:${FILTERED}@db:5432/shop`,
    );
    const pem =
      '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----';
    expect(scrubText(pem)).toBe(
      `-----BEGIN RSA PRIVATE KEY-----\n${FILTERED}\n-----END RSA PRIVATE KEY-----`,
    );
  });

  it('filters the values of sensitive keys at any depth, in objects and pairs, and leaves the rest', () => {
    const sent = {
      user: { name: 'ana', password: 'p', tokens: [1, 2], pin_ok: true },
      items: [{ api_key: 'k', sku: 'x', qty: 2 }],
      pairs: [
        ['secret', 's'],
        ['q', 'shoes'],
      ],
      auth: null,
      empty_password: '',
    };
    expect(scrubValue(sent)).toEqual({
      user: { name: 'ana', password: FILTERED, tokens: FILTERED, pin_ok: true },
      items: [{ api_key: FILTERED, sku: 'x', qty: 2 }],
      pairs: [
        ['secret', FILTERED],
        ['q', 'shoes'],
      ],
      auth: null,
      empty_password: '',
    });
    // A copy: what was sent is not changed.
    expect(sent.user.password).toBe('p');
  });

  it('is idempotent: a filtered value stays filtered and unchanged', () => {
    const once = scrubValue({ password: 'p', note: 'Bearer abc' });
    expect(scrubValue(once)).toEqual(once);
  });

  it('filters what nests deeper than a stored event may', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 40; i += 1) deep = { level: deep };
    expect(JSON.stringify(scrubValue(deep))).toContain(FILTERED);
  });
});
