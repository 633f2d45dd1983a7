import { loadBrowserSourceMapFixture } from '@quitanda/testing';

import {
  ROOT_TOKEN,
  createTrackedProject,
  startErrorTrackingGateway,
  storeEvent,
} from './error-tracking-support';
import type { ErrorTrackingGateway } from './error-tracking-support';

const root = { 'PRIVATE-TOKEN': ROOT_TOKEN };

function eventId(n: number): string {
  return n.toString(16).padStart(32, 'a');
}

describe('error tracking: derived tags and Sentry search (e2e)', () => {
  let gw: ErrorTrackingGateway;
  let project: { id: number; publicKey: string };
  let base: string;
  /** Error ids by the exception type each event group throws. */
  const errorIds: Record<string, string> = {};

  function thrown(
    n: number,
    type: string,
    fields: Record<string, unknown>,
  ): Record<string, unknown> {
    return {
      event_id: eventId(n),
      platform: 'node',
      exception: {
        values: [
          {
            type,
            value: `${type} happened`,
            mechanism: { type: 'onunhandledrejection', handled: false },
            stacktrace: {
              frames: [{ function: type.toLowerCase(), module: 'app' }],
            },
          },
        ],
      },
      ...fields,
    };
  }

  beforeAll(async () => {
    gw = await startErrorTrackingGateway();
    project = await createTrackedProject(gw);
    base = `/api/v4/projects/${project.id}/error_tracking`;
    const chrome = { browser: { name: 'Chrome', version: '120.0' } };
    const firefox = { browser: { name: 'Firefox', version: '121.0' } };
    const events = [
      // CheckoutError: 3 in Chrome, 1 in Firefox; production; release 1.0.
      ...[1, 2, 3].map((n) =>
        thrown(n, 'CheckoutError', {
          release: 'shop@1.0.0',
          environment: 'production',
          contexts: chrome,
          user: { id: `u${n}`, email: `user${n}@example.com` },
          tags: { feature: 'cart' },
          request: { url: `https://shop.example/checkout?step=${n}` },
        }),
      ),
      thrown(4, 'CheckoutError', {
        release: 'shop@1.0.0',
        environment: 'production',
        contexts: firefox,
        user: { email: 'ana@example.com' },
        tags: { feature: 'cart' },
        request: { url: 'https://shop.example/checkout' },
      }),
      // SearchError: staging only, Firefox, a warning.
      ...[5, 6].map((n) =>
        thrown(n, 'SearchError', {
          release: 'shop@2.0.0',
          environment: 'staging',
          level: 'warning',
          contexts: firefox,
          tags: { feature: 'search box' },
        }),
      ),
      // A message with no browser and no tags of its own.
      {
        event_id: eventId(7),
        message: 'Disk almost full on worker-3',
        level: 'info',
        server_name: 'worker-3',
        environment: 'production',
      },
    ];
    for (const event of events)
      expect(
        (await storeEvent(gw, project.id, project.publicKey, event)).status,
      ).toBe(200);
    const list = await gw.http
      .get(`${base}/errors?per_page=100`)
      .set(root)
      .expect(200);
    for (const error of list.body as Array<{ id: string; title: string }>)
      errorIds[error.title.split(':')[0] as string] = error.id;
  });

  afterAll(() => gw?.close());

  async function titles(query: string, extra = ''): Promise<string[]> {
    const res = await gw.http
      .get(`${base}/errors?query=${encodeURIComponent(query)}${extra}`)
      .set(root)
      .expect(200);
    return (res.body as Array<{ title: string }>)
      .map((e) => e.title.split(':')[0] as string)
      .sort();
  }

  it("counts each tag's values over the error's events, derived tags included", async () => {
    const res = await gw.http
      .get(`${base}/errors/${errorIds['CheckoutError']}/tags`)
      .set(root)
      .expect(200);
    const byKey = Object.fromEntries(
      (res.body as Array<{ key: string }>).map((k) => [k.key, k]),
    );
    expect(byKey['browser']).toEqual({
      key: 'browser',
      total: 4,
      unique_values: 2,
      top_values: [
        {
          value: 'Chrome 120.0',
          count: 3,
          share: 0.75,
          last_seen: expect.any(String),
        },
        {
          value: 'Firefox 121.0',
          count: 1,
          share: 0.25,
          last_seen: expect.any(String),
        },
      ],
    });
    expect(byKey['browser.name']).toMatchObject({ total: 4, unique_values: 2 });
    expect(byKey['user']).toMatchObject({ total: 4, unique_values: 4 });
    expect(
      (
        byKey['user'] as unknown as { top_values: Array<{ value: string }> }
      ).top_values
        .map((v) => v.value)
        .sort(),
    ).toEqual(['email:ana@example.com', 'id:u1', 'id:u2', 'id:u3']);
    for (const [key, value] of [
      ['handled', 'no'],
      ['mechanism', 'onunhandledrejection'],
      ['url', 'https://shop.example/checkout'],
      ['level', 'error'],
      ['environment', 'production'],
      ['release', 'shop@1.0.0'],
      ['feature', 'cart'],
    ])
      expect(byKey[key as string]).toMatchObject({
        total: 4,
        unique_values: 1,
        top_values: [{ value, count: 4, share: 1 }],
      });
    expect(Object.keys(byKey)).toEqual([...Object.keys(byKey)].sort());
  });

  it('filters the list by tags, negated tags and the built-in keys', async () => {
    await expect(titles('browser.name:Chrome')).resolves.toEqual([
      'CheckoutError',
    ]);
    await expect(titles('browser.name:Firefox')).resolves.toEqual([
      'CheckoutError',
      'SearchError',
    ]);
    await expect(
      titles('browser.name:Firefox !environment:staging'),
    ).resolves.toEqual(['CheckoutError']);
    await expect(titles('!has:browser')).resolves.toEqual([
      'Disk almost full on worker-3',
    ]);
    await expect(titles('has:server_name')).resolves.toEqual([
      'Disk almost full on worker-3',
    ]);
    await expect(titles('level:warning')).resolves.toEqual(['SearchError']);
    await expect(titles('release:shop@2.*')).resolves.toEqual(['SearchError']);
    await expect(titles('user.email:ana@example.com')).resolves.toEqual([
      'CheckoutError',
    ]);
    await expect(titles('feature:"search box"')).resolves.toEqual([
      'SearchError',
    ]);
    await expect(titles('user:"id:u2"')).resolves.toEqual(['CheckoutError']);
  });

  it('searches free text in titles, messages, culprits and tag values', async () => {
    await expect(titles('worker-3')).resolves.toEqual([
      'Disk almost full on worker-3',
    ]);
    await expect(titles('"search box"')).resolves.toEqual(['SearchError']);
    await expect(titles('happened')).resolves.toEqual([
      'CheckoutError',
      'SearchError',
    ]);
  });

  it('filters by status, times and counts, and keeps the GitLab parameters working', async () => {
    await expect(titles('times_seen:>3')).resolves.toEqual(['CheckoutError']);
    await expect(titles('times_seen:<=2 firstSeen:-24h')).resolves.toEqual([
      'Disk almost full on worker-3',
      'SearchError',
    ]);
    await expect(titles('lastSeen:+1d')).resolves.toEqual([]);
    await gw.http
      .put(`${base}/errors/${errorIds['SearchError']}`)
      .set(root)
      .send({ status: 'resolved' })
      .expect(200);
    // The default status is unresolved, unless the query names one.
    await expect(titles('environment:staging')).resolves.toEqual([]);
    await expect(titles('is:resolved')).resolves.toEqual(['SearchError']);
    await expect(titles('!is:resolved')).resolves.toEqual([
      'CheckoutError',
      'Disk almost full on worker-3',
    ]);
    await expect(titles('', '&status=resolved')).resolves.toEqual([
      'SearchError',
    ]);
    await expect(titles('', '&level=info')).resolves.toEqual([
      'Disk almost full on worker-3',
    ]);
    await expect(titles('', '&search_term=Checkout')).resolves.toEqual([
      'CheckoutError',
    ]);
    await expect(
      titles('', '&search=Checkout&environment=production&sort=frequency'),
    ).resolves.toEqual(['CheckoutError']);
    await gw.http
      .put(`${base}/errors/${errorIds['SearchError']}`)
      .set(root)
      .send({ status: 'unresolved' })
      .expect(200);
  });

  it("counts and charts an error's events in the environment the list is narrowed to", async () => {
    const own = await createTrackedProject(gw);
    const ownBase = `/api/v4/projects/${own.id}/error_tracking`;
    // PaymentError: 3 in production, 2 in staging; RefundError: 5 and 1.
    const spread: Array<[string, string, number]> = [
      ['PaymentError', 'production', 3],
      ['PaymentError', 'staging', 2],
      ['RefundError', 'production', 5],
      ['RefundError', 'staging', 1],
    ];
    let n = 100;
    for (const [type, environment, times] of spread)
      for (let i = 0; i < times; i++)
        expect(
          (
            await storeEvent(
              gw,
              own.id,
              own.publicKey,
              thrown(n++, type, { environment }),
            )
          ).status,
        ).toBe(200);
    const counts = async (params: string) => {
      const res = await gw.http
        .get(`${ownBase}/errors?sort=frequency${params}`)
        .set(root)
        .expect(200);
      const errors = res.body as Array<{
        title: string;
        count: number;
        frequency: Array<[number, number]>;
      }>;
      // The 24-hour frequency follows the same environment as the count.
      for (const error of errors)
        expect(error.frequency.reduce((sum, [, n]) => sum + n, 0)).toBe(
          error.count,
        );
      return errors.map((e) => [e.title.split(':')[0], e.count]);
    };
    await expect(counts('')).resolves.toEqual([
      ['RefundError', 6],
      ['PaymentError', 5],
    ]);
    // The frequency sort follows the environment's counts too.
    await expect(counts('&environment=staging')).resolves.toEqual([
      ['PaymentError', 2],
      ['RefundError', 1],
    ]);
    await expect(counts('&environment=production')).resolves.toEqual([
      ['RefundError', 5],
      ['PaymentError', 3],
    ]);
    await expect(
      counts(`&query=${encodeURIComponent('environment:staging')}`),
    ).resolves.toEqual([
      ['PaymentError', 2],
      ['RefundError', 1],
    ]);
    await expect(counts('&environment=qa')).resolves.toEqual([]);
    // Keyset pages go on from the environment's count, not the total.
    const first = await gw.http
      .get(`${ownBase}/errors?sort=frequency&environment=staging&per_page=1`)
      .set(root)
      .expect(200);
    expect(first.body.map((e: { count: number }) => e.count)).toEqual([2]);
    const next = /<([^>]+)>; rel="next"/.exec(
      first.headers['link'] as string,
    )?.[1] as string;
    const cursor = new URL(next).searchParams.get('cursor') as string;
    const second = await gw.http
      .get(
        `${ownBase}/errors?sort=frequency&environment=staging&per_page=1&cursor=${encodeURIComponent(cursor)}`,
      )
      .set(root)
      .expect(200);
    expect(second.body.map((e: { count: number }) => e.count)).toEqual([1]);
  });

  it("tags a browser SDK's event with the browser and OS its User-Agent names", async () => {
    const own = await createTrackedProject(gw);
    const ownBase = `/api/v4/projects/${own.id}/error_tracking`;
    const recorded =
      loadBrowserSourceMapFixture('001-debug-id.json').parsed.event;
    expect((await storeEvent(gw, own.id, own.publicKey, recorded)).status).toBe(
      200,
    );
    const found = await gw.http
      .get(
        `${ownBase}/errors?query=${encodeURIComponent('browser.name:"Chrome Headless" os.name:Linux')}`,
      )
      .set(root)
      .expect(200);
    expect(found.body).toHaveLength(1);
    const tags = await gw.http
      .get(`${ownBase}/errors/${found.body[0].id}/tags`)
      .set(root)
      .expect(200);
    const top = Object.fromEntries(
      (
        tags.body as Array<{
          key: string;
          top_values: Array<{ value: string }>;
        }>
      ).map((k) => [k.key, k.top_values[0]?.value]),
    );
    expect(top).toMatchObject({
      browser: 'Chrome Headless 156.0.0',
      'browser.name': 'Chrome Headless',
      os: 'Linux',
      'os.name': 'Linux',
    });
  });

  it('answers a bad query with a 400 naming the fault', async () => {
    for (const [query, message] of [
      [
        'is:pending',
        'query: is:pending is not a status (unresolved, resolved or ignored)',
      ],
      ['feature:"open', 'query: a quote opened at character 9 is never closed'],
      [
        'times_seen:>lots',
        expect.stringMatching(/^query: times_seen:>lots is not a count/),
      ],
      [
        'firstSeen:yesterday',
        expect.stringMatching(/^query: firstSeen:yesterday is not a time/),
      ],
      [
        'assigned:me',
        'query: assigned: is not stored here, so it cannot be searched',
      ],
    ] as const) {
      const res = await gw.http
        .get(`${base}/errors?query=${encodeURIComponent(query)}`)
        .set(root)
        .expect(400);
      expect(res.body).toEqual({ message });
    }
    await gw.http.get(`${base}/errors?level=loud`).set(root).expect(400);
  });

  it("searches an error's events by tags, negation and text", async () => {
    const events = async (query: string) => {
      const res = await gw.http
        .get(
          `${base}/errors/${errorIds['CheckoutError']}/events?query=${encodeURIComponent(query)}`,
        )
        .set(root)
        .expect(200);
      return (res.body as Array<{ event_id: string }>)
        .map((e) => e.event_id)
        .sort();
    };
    await expect(events('browser.name:Chrome !user:"id:u1"')).resolves.toEqual([
      eventId(2),
      eventId(3),
    ]);
    await expect(events('ana@example.com')).resolves.toEqual([eventId(4)]);
    await expect(events('has:user.email timestamp:-1h')).resolves.toHaveLength(
      4,
    );
    const refused = await gw.http
      .get(
        `${base}/errors/${errorIds['CheckoutError']}/events?query=is:resolved`,
      )
      .set(root)
      .expect(400);
    expect(refused.body.message).toMatch(/describes an error, not its events/);
    // An occurrence's tags are the SDK's and the derived ones.
    const res = await gw.http
      .get(
        `${base}/errors/${errorIds['CheckoutError']}/events?query=${encodeURIComponent('user:"id:u1"')}`,
      )
      .set(root)
      .expect(200);
    expect(res.body[0].tags).toMatchObject({
      feature: 'cart',
      'browser.name': 'Chrome',
      user: 'id:u1',
    });
  });

  it("takes `query` and `search` together on an error's events", async () => {
    const res = await gw.http
      .get(
        `${base}/errors/${errorIds['CheckoutError']}/events?query=${encodeURIComponent('browser.name:Chrome')}&search=u2`,
      )
      .set(root)
      .expect(200);
    expect(res.body.map((e: { event_id: string }) => e.event_id)).toEqual([
      eventId(2),
    ]);
  });

  it('changes the status of all the errors a query takes, and only those', async () => {
    const own = await createTrackedProject(gw);
    const ownBase = `/api/v4/projects/${own.id}/error_tracking`;
    for (const event of [
      thrown(11, 'ChromeOnlyError', {
        contexts: { browser: { name: 'Chrome' } },
      }),
      thrown(12, 'FirefoxOnlyError', {
        contexts: { browser: { name: 'Firefox' } },
      }),
    ])
      expect((await storeEvent(gw, own.id, own.publicKey, event)).status).toBe(
        200,
      );
    const allMatching = (status: string, query: string, expected: number) =>
      gw.http
        .put(`${ownBase}/errors`)
        .set(root)
        .send({ status, all_matching: true, query })
        .expect(expected);
    const changed = await allMatching('resolved', 'browser.name:Chrome', 200);
    expect(changed.body.updated).toBe(1);
    const resolved = await gw.http
      .get(`${ownBase}/errors?status=resolved`)
      .set(root)
      .expect(200);
    expect(
      resolved.body.map((e: { title: string }) => e.title.split(':')[0]),
    ).toEqual(['ChromeOnlyError']);
    // A query naming a status takes its errors instead of the open ones.
    await allMatching('unresolved', 'is:resolved', 200);
    const open = await gw.http.get(`${ownBase}/errors`).set(root).expect(200);
    expect(open.body).toHaveLength(2);
    // A bad query changes nothing.
    await allMatching('resolved', 'assigned:me', 400);
    const still = await gw.http.get(`${ownBase}/errors`).set(root).expect(200);
    expect(still.body).toHaveLength(2);
  });
});
