import { FILTERED } from '../../sentry-event/sensitive-data';
import {
  eventDetailsView,
  eventTagList,
  queryView,
} from './event-details.view';
import { eventView } from './event.view';

describe('event details', () => {
  it('shows an event stored before scrubbing with its credentials filtered by the same rule', () => {
    const out = eventView({
      timestamp: new Date('2026-11-22T10:00:00.000Z'),
      payload: {
        request: {
          url: 'https://shop.example/pay?step=2&private_token=secret-value',
          headers: [
            ['Authorization', 'Bearer secret-value'],
            ['COOKIE', 'sid=secret-value'],
            ['Accept', '*/*'],
          ],
          cookies: { sid: 'secret-value' },
          query_string: 'step=pay&private_token=secret-value',
          data: { user: { name: 'ana', password: 'secret-value' } },
        },
        extra: { api_key: 'secret-value' },
        breadcrumbs: { values: [{ data: { token: 'secret-value' } }] },
      },
    }).value;
    expect(out).not.toContain('secret-value');
    expect(out).toContain(FILTERED);
    expect(out).toContain('*/*');
    expect(out).toContain('ana');
  });

  it('shows a query string decoded, as text or pairs', () => {
    expect(queryView('q=red%20shoes&page=2')).toBe('q=red shoes&page=2');
    expect(
      queryView([
        ['q', 'shoes'],
        ['page', '2'],
      ]),
    ).toEqual({ q: 'shoes', page: '2' });
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
    const payload = {
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
    };
    const out = eventView({ payload, timestamp: new Date() }).value;
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
