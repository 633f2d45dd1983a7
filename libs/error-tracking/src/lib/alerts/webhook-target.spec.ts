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
