import { isIP } from 'node:net';

import { sendWebhook } from './webhook-sender';
import {
  guardedLookup,
  isBlockedAddress,
  targetProblem,
} from './webhook-target';

describe('webhook targets (server-side request forgery)', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '0.0.0.0',
    '10.0.0.1',
    '100.64.0.1',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.10',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:169.254.169.254',
    'not an address',
  ])('blocks %s', (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111'])(
    'lets %s through',
    (address) => {
      expect(isBlockedAddress(address)).toBe(false);
    },
  );

  const strict = { allowLocal: false, ownHost: 'errors.example.com' };

  it('names why a URL may not be a target', () => {
    expect(
      targetProblem('https://hooks.example.org/x', strict),
    ).toBeUndefined();
    expect(targetProblem('http://127.0.0.1:3000/', strict)).toMatch(
      /local network/,
    );
    expect(targetProblem('http://[::1]/', strict)).toMatch(/local network/);
    expect(targetProblem('http://LOCALHOST/', strict)).toMatch(/localhost/);
    expect(targetProblem('http://api.localhost/', strict)).toMatch(/localhost/);
    expect(targetProblem('https://errors.example.com/hook', strict)).toMatch(
      /this instance/,
    );
    expect(targetProblem('file:///etc/passwd', strict)).toMatch(/schemes/);
    expect(targetProblem('http://user:pw@example.org/', strict)).toMatch(
      /credentials/,
    );
    expect(targetProblem('not a url', strict)).toBe('is invalid');
    expect(
      targetProblem('http://127.0.0.1:3000/', { allowLocal: true }),
    ).toBeUndefined();
  });

  // Every spelling of a local address the URL parser accepts: IPv4 in
  // decimal, octal, hex and short forms, IPv6 with IPv4 inside (compatible,
  // mapped, translated, 6to4, NAT64), unspecified, site-local, a trailing dot.
  it.each([
    'http://[::127.0.0.1]/',
    'http://[::7f00:1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[0:0:0:0:0:ffff:7f00:1]/',
    'http://[::ffff:0:127.0.0.1]/',
    'http://[::a9fe:a9fe]/latest/meta-data',
    'http://[::ffff:a9fe:a9fe]/',
    'http://[::]/',
    'http://[::1]:8080/',
    'http://[2002:7f00:1::]/',
    'http://[2001:0:7f00:1::]/',
    'http://[64:ff9b::a9fe:a9fe]/',
    'http://[fec0::1]/',
    'http://2130706433/',
    'http://017700000001/',
    'http://0x7f000001/',
    'http://0x7f.1/',
    'http://0177.0.0.1/',
    'http://127.1/',
    'http://0/',
    'http://0xa9fea9fe/',
    'http://10.1/',
    'http://127.0.0.1./',
    'http://localhost./',
    'http://app.localhost./',
  ])('refuses %s as a target, at creation and at delivery', async (url) => {
    expect(targetProblem(url, strict)).toMatch(/^is blocked: /);
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) !== 0) expect(isBlockedAddress(host)).toBe(true);
    const outcome = await sendWebhook(
      { url, body: '{}', eventUuid: 'u', verifyTls: true, instance: 'i' },
      strict,
    );
    expect(outcome).toMatchObject({ delivered: false, status: null });
    expect(outcome.error).toMatch(/^The URL is blocked: /);
  });

  function resolve(
    host: string,
    allowLocal: boolean,
  ): Promise<{ error: Error | null; address: unknown }> {
    return new Promise((done) =>
      guardedLookup({ allowLocal })(host, {}, (error, address) =>
        done({ error, address }),
      ),
    );
  }

  it('checks every address a name resolves to before connecting', async () => {
    const blocked = await resolve('localhost', false);
    expect(blocked.error?.message).toMatch(/resolves to a blocked address/);
    const allowed = await resolve('localhost', true);
    expect(allowed.error).toBeNull();
    expect(['127.0.0.1', '::1']).toContain(allowed.address);
  });
});
