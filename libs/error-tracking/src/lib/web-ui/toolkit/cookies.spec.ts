import { parseCookies, safeRedirectPath, serializeCookie } from './cookies';
import { csrfTokenFor, isValidCsrfToken } from './csrf';
import { signInDelayMs } from '../../sessions/sign-in-throttle';

describe('session cookies', () => {
  it('parses a Cookie header', () => {
    const cookies = parseCookies('a=1; _quitanda_session=abc%2Fd; a=2; bad');
    expect(cookies.get('a')).toBe('1');
    expect(cookies.get('_quitanda_session')).toBe('abc/d');
    expect(parseCookies(undefined).size).toBe(0);
  });

  it('sets HttpOnly, SameSite=Lax and Path, Secure only over HTTPS', () => {
    expect(
      serializeCookie('s', 'v', { secure: false, maxAgeSeconds: 60 }),
    ).toBe('s=v; Path=/; HttpOnly; SameSite=Lax; Max-Age=60');
    expect(serializeCookie('s', '', { secure: true, maxAgeSeconds: 0 })).toBe(
      's=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure',
    );
  });

  it.each([
    [
      '/projects/1/error_tracking?status=resolved',
      '/projects/1/error_tracking?status=resolved',
    ],
    ['/', '/'],
    ['//evil.test/x', '/'],
    ['/\\evil.test', '/'],
    ['https://evil.test/', '/'],
    ['javascript:alert(1)', '/'],
    ['/%0d%0aSet-Cookie:x', '/%0d%0aSet-Cookie:x'],
    ['/a\nb', '/'],
    ['/users/sign_out', '/'],
    [undefined, '/'],
    // Normalising `..` and `.` segments must not leave `//host` behind.
    ['/..//evil.example', '/'],
    ['/.//evil.example/x', '/'],
    ['/a/../..//evil.example', '/'],
    ['/%2e%2e//evil.example', '/'],
    ['/%2E//evil.example', '/'],
    ['/..%2f/evil.example', '/..%2f/evil.example'],
    ['/../\\evil.example', '/'],
    ['/..', '/'],
    ['/a/../projects', '/projects'],
    ['/\tevil.example', '/'],
    ['http:/evil.example', '/'],
    ['/x\u2028', '/x%E2%80%A8'],
    ['/x\u0000', '/'],
    ['', '/'],
    [['/projects'], '/'],
  ])('redirects %p to %p only when same-site', (candidate, expected) => {
    expect(safeRedirectPath(candidate)).toBe(expected);
  });
});

describe('CSRF tokens', () => {
  it('accepts the token of the same secret only', () => {
    const token = csrfTokenFor('session-a');
    expect(isValidCsrfToken('session-a', token)).toBe(true);
    expect(isValidCsrfToken('session-b', token)).toBe(false);
    expect(isValidCsrfToken('session-a', undefined)).toBe(false);
    expect(isValidCsrfToken('session-a', '')).toBe(false);
    expect(isValidCsrfToken(undefined, token)).toBe(false);
    expect(isValidCsrfToken('session-a', [token])).toBe(false);
  });
});

describe('sign-in throttle', () => {
  const delays = (failures: number[], maxFailures: number, lockMs: number) =>
    failures.map((n) => signInDelayMs(n, { maxFailures, lockMs }));

  it('lets two failures through, then slows, then refuses for the lock (defaults: 10, 15 minutes)', () => {
    expect(delays([1, 2, 3, 4, 5, 9, 10, 20], 10, 900_000)).toEqual([
      0, 0, 1000, 2000, 4000, 64_000, 900_000, 900_000,
    ]);
  });

  it('follows a configured policy, never slowing longer than the lock', () => {
    expect(delays([1, 2, 3, 4, 5], 4, 60_000)).toEqual([
      0, 0, 1000, 60_000, 60_000,
    ]);
    expect(delays([1, 3, 8, 9], 20, 5_000)).toEqual([0, 1000, 5000, 5000]);
    expect(delays([1], 1, 30_000)).toEqual([30_000]);
  });
});
