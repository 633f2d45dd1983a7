import {
  MASKED,
  eventDetailsView,
  eventTagList,
  maskedFields,
  maskedHeaders,
  queryView,
} from './event-details.view';

describe('event details', () => {
  it('masks credential headers, sent as an object or as pairs, any case', () => {
    expect(
      maskedHeaders({
        authorization: 'Bearer x',
        COOKIE: 'a=b',
        Accept: '*/*',
      }),
    ).toEqual([
      ['authorization', MASKED],
      ['COOKIE', MASKED],
      ['Accept', '*/*'],
    ]);
    expect(
      maskedHeaders([
        ['X-Sentry-Auth', 'Sentry sentry_key=k'],
        ['Host', 'shop'],
        'junk',
      ]),
    ).toEqual([
      ['X-Sentry-Auth', MASKED],
      ['Host', 'shop'],
    ]);
  });

  it('masks secret fields of a body at any depth, and secret query parameters', () => {
    expect(
      maskedFields({
        user: { name: 'ana', password: 'p', tokens: [1] },
        items: [{ api_key: 'k', sku: 'x' }],
      }),
    ).toEqual({
      user: { name: 'ana', password: MASKED, tokens: MASKED },
      items: [{ api_key: MASKED, sku: 'x' }],
    });
    expect(queryView('step=pay&private_token=t&sentry_key=k')).toBe(
      `step=pay&private_token=${MASKED}&sentry_key=${MASKED}`,
    );
    expect(
      queryView([
        ['q', 'shoes'],
        ['secret', 's'],
      ]),
    ).toEqual({
      q: 'shoes',
      secret: MASKED,
    });
    expect(queryView('')).toBeUndefined();
  });

  it("lists the SDK's tags and the fields' own where the SDK set none, by key", () => {
    expect(
      eventTagList({
        tags: { level: 'custom', region: 'eu' },
        level: 'error',
        logger: 'console',
        environment: 'production',
        release: '',
      }),
    ).toEqual([
      ['environment', 'production'],
      ['level', 'custom'],
      ['logger', 'console'],
      ['region', 'eu'],
    ]);
  });

  it('shows every section sent, escaping what the SDK sent, and none of the credentials', () => {
    const out = eventDetailsView({
      release: 'shop@1',
      tags: { a: '<b>' },
      contexts: { os: { type: 'os', name: 'Linux' }, custom: 'plain' },
      user: { id: 'u1', ip_address: '10.0.0.1', segment: 'vip' },
      request: {
        method: 'GET',
        headers: { Authorization: 'Bearer secret-value' },
        cookies: 'sid=secret-value',
      },
      extra: { note: '<script>x</script>' },
      sdk: { name: 'sentry.python', version: '2.0', integrations: ['django'] },
    }).value;
    for (const heading of [
      'Event',
      'Event tags',
      'Contexts',
      'User',
      'Request',
      'Additional data',
      'SDK',
    ])
      expect(out).toContain(`>${heading}</h2>`);
    expect(out).toContain('Operating system');
    expect(out).toContain('IP address');
    expect(out).toContain('vip');
    expect(out).toContain('&lt;script&gt;');
    expect(out).not.toContain('<script>');
    expect(out).not.toContain('secret-value');
  });

  it('leaves out the sections of an event that sent none', () => {
    const out = eventDetailsView({}).value;
    expect(out).toContain('>Event</h2>');
    expect(out).toContain('No tags.');
    for (const heading of ['Contexts', 'User', 'Request', 'SDK'])
      expect(out).not.toContain(`>${heading}</h2>`);
  });
});
