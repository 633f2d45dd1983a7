import { recordedEvent } from '../../testing/recorded-event';
import { exceptionList } from './event-json';
import type { JsonObject } from './event-json';
import { scrubEventPayload } from './scrub-event';
import { FILTERED } from './sensitive-data';

const SECRETS = ['Bearer abc.def', 'sid=s3cr3t', 'hunter2', 'tok_42', 'pk_9'];

/** The Python SDK's recorded event, as a Django app with PII on sends it. */
function pythonEventWithRequest(): JsonObject {
  return recordedEvent(
    'python-1.21.0/001-exception.json',
    {
      request: {
        method: 'POST',
        url: 'https://shop:pk_9@shop.example/auth/login?next=/cart&access_token=tok_42',
        query_string: 'next=%2Fcart&access_token=tok_42',
        headers: {
          Authorization: 'Bearer abc.def',
          Cookie: 'sid=s3cr3t',
          'User-Agent': 'python-requests/2.31 (auth test)',
          Accept: '*/*',
        },
        cookies: { sid: 's3cr3t' },
        data: {
          username: 'ana',
          password: 'hunter2',
          card: '4111111111111111',
        },
        env: { REMOTE_ADDR: '10.0.0.1', SECRET_KEY: 'pk_9' },
      },
      extra: { 'sys.argv': ['client.py'], token: 'tok_42' },
      contexts: {
        runtime: { name: 'CPython', version: '3.11.2' },
        billing: { api_key: 'pk_9', plan: 'pro' },
      },
      user: {
        id: 'u1',
        email: 'ana@example.com',
        username: 'ana',
        ip_address: '10.0.0.1',
        session_key: 'sid=s3cr3t',
      },
      breadcrumbs: {
        values: [
          {
            category: 'http',
            message: 'POST /login',
            data: { url: '/login', password: 'hunter2' },
          },
        ],
      },
    },
    (frames) =>
      frames.map((frame) => ({
        ...frame,
        vars: { ...(frame['vars'] as JsonObject), password: 'hunter2' },
      })),
  );
}

describe('scrubEventPayload', () => {
  it("filters the request's credentials, body, query and environment secrets", () => {
    const request = scrubEventPayload(pythonEventWithRequest())[
      'request'
    ] as JsonObject;
    expect(request['headers']).toEqual({
      Authorization: FILTERED,
      Cookie: FILTERED,
      'User-Agent': 'python-requests/2.31 (auth test)',
      Accept: '*/*',
    });
    expect(request['cookies']).toBe(FILTERED);
    expect(request['data']).toEqual({
      username: 'ana',
      password: FILTERED,
      card: FILTERED,
    });
    expect(request['query_string']).toBe(
      `next=%2Fcart&access_token=${FILTERED}`,
    );
    expect(request['url']).toBe(
      `https://shop:${FILTERED}@shop.example/auth/login?next=/cart&access_token=${FILTERED}`,
    );
    expect(request['env']).toEqual({
      REMOTE_ADDR: '10.0.0.1',
      SECRET_KEY: FILTERED,
    });
    expect(request['method']).toBe('POST');
  });

  it('filters headers sent as pairs, any case', () => {
    const request = scrubEventPayload({
      request: {
        headers: [
          ['cookie', 'a=b'],
          ['set-cookie', 'c=d'],
          ['Proxy-Authorization', 'Basic eA=='],
          ['Host', 'shop'],
        ],
      },
    })['request'] as JsonObject;
    expect(request['headers']).toEqual([
      ['cookie', FILTERED],
      ['set-cookie', FILTERED],
      ['Proxy-Authorization', FILTERED],
      ['Host', 'shop'],
    ]);
  });

  it("filters extra data, contexts, breadcrumbs' data, frame variables and the user's other fields", () => {
    const scrubbed = scrubEventPayload(pythonEventWithRequest());
    expect(scrubbed['extra']).toEqual({
      'sys.argv': ['client.py'],
      token: FILTERED,
    });
    expect(scrubbed['contexts']).toEqual({
      runtime: { name: 'CPython', version: '3.11.2' },
      billing: { api_key: FILTERED, plan: 'pro' },
    });
    expect(scrubbed['user']).toEqual({
      id: 'u1',
      email: 'ana@example.com',
      username: 'ana',
      ip_address: '10.0.0.1',
      session_key: FILTERED,
    });
    const [crumb] = (scrubbed['breadcrumbs'] as { values: JsonObject[] })
      .values;
    expect(crumb).toEqual({
      category: 'http',
      message: 'POST /login',
      data: { url: '/login', password: FILTERED },
    });
    for (const exception of exceptionList(scrubbed['exception'])) {
      const { frames } = exception['stacktrace'] as { frames: JsonObject[] };
      for (const frame of frames)
        expect((frame['vars'] as JsonObject)['password']).toBe(FILTERED);
      // What the SDK sent besides stays readable.
      expect((frames[0]?.['vars'] as JsonObject)['__name__']).toBe(
        "'__main__'",
      );
    }
    expect(JSON.stringify(scrubbed)).not.toMatch(
      new RegExp(SECRETS.map((s) => s.replace(/\./g, '\\.')).join('|')),
    );
  });

  it('keeps what titles and grouping read, and changes nothing it was given', () => {
    const sent = pythonEventWithRequest();
    const before = JSON.stringify(sent);
    const scrubbed = scrubEventPayload(sent);
    expect(JSON.stringify(sent)).toBe(before);
    const [exception] = exceptionList(scrubbed['exception']);
    const [original] = exceptionList(sent['exception']);
    expect(exception?.['type']).toBe(original?.['type']);
    expect(exception?.['value']).toBe(original?.['value']);
    const frameKeys = (e: JsonObject | undefined) =>
      (e?.['stacktrace'] as { frames: JsonObject[] }).frames.map((f) => [
        f['function'],
        f['module'],
        f['filename'],
        f['context_line'],
      ]);
    expect(frameKeys(exception)).toEqual(frameKeys(original));
    expect(scrubbed['tags']).toEqual(sent['tags']);
  });

  it('is idempotent, so an event stored scrubbed reads the same', () => {
    const once = scrubEventPayload(pythonEventWithRequest());
    expect(scrubEventPayload(once)).toEqual(once);
  });

  it('filters message parameters but leaves the formatted message', () => {
    const scrubbed = scrubEventPayload({
      message: 'login failed for ana',
      logentry: {
        message: 'login failed for %s with %s',
        params: ['ana', 'Bearer abc'],
        formatted: 'login failed for ana',
      },
    });
    expect(scrubbed['logentry']).toEqual({
      message: 'login failed for %s with %s',
      params: ['ana', FILTERED],
      formatted: 'login failed for ana',
    });
  });
});
