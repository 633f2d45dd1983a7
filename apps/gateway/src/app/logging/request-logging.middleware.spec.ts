import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';

import pino from 'pino';

import {
  requestLoggingMiddleware,
  scrubUrl,
} from './request-logging.middleware';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      raw.push(chunk.toString('utf8'));
      lines.push(JSON.parse(chunk.toString('utf8')));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines, raw };
}

function exchange(headers: Record<string, string>, url: string) {
  const req = {
    method: 'POST',
    originalUrl: url,
    url,
    headers,
    ip: '10.0.0.9',
  };
  const sent: Record<string, string> = {};
  const res = Object.assign(new EventEmitter(), {
    statusCode: 201,
    writableFinished: true,
    setHeader: (name: string, value: string) => {
      sent[name.toLowerCase()] = value;
    },
    getHeader: (name: string) => (name === 'Content-Length' ? '42' : undefined),
  });
  return { req, res, sent };
}

describe('request logging', () => {
  it('writes one line per request with its id, and no credential', () => {
    const { logger, lines, raw } = capture();
    const { req, res, sent } = exchange(
      {
        authorization: 'Basic a2lkX3g6c2VjcmV0LWFwcC1zZWNyZXQ=',
        'private-token': 'glpat-very-secret-token',
        'x-sentry-auth': 'Sentry sentry_key=glet_secretkey, sentry_version=7',
        cookie: 'session=abcdef-secret-cookie',
        'user-agent': 'sentry.javascript.node/11.12.0',
      },
      '/api/v4/error_tracking/collector/api/1/envelope/?sentry_key=glet_querykey&sentry_version=7',
    );
    let called = false;
    requestLoggingMiddleware(logger)(req as never, res as never, () => {
      called = true;
    });
    expect(called).toBe(true);
    res.emit('finish');
    res.emit('close');

    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      reqId: sent['x-request-id'],
      method: 'POST',
      status: 201,
      bytes: 42,
      ip: '10.0.0.9',
      ua: 'sentry.javascript.node/11.12.0',
      url: '/api/v4/error_tracking/collector/api/1/envelope/?sentry_key=[REDACTED]&sentry_version=7',
    });
    for (const secret of [
      'a2lkX3g6c2VjcmV0LWFwcC1zZWNyZXQ=',
      'glpat-very-secret-token',
      'glet_secretkey',
      'abcdef-secret-cookie',
      'glet_querykey',
    ]) {
      expect(raw.join('')).not.toContain(secret);
    }
  });

  it('keeps a sane incoming request id and replaces a bad one', () => {
    const { logger } = capture();
    const kept = exchange({ 'x-request-id': 'proxy-1.2:3' }, '/events');
    requestLoggingMiddleware(logger)(
      kept.req as never,
      kept.res as never,
      () => undefined,
    );
    expect(kept.sent['x-request-id']).toBe('proxy-1.2:3');
    const replaced = exchange(
      { 'x-request-id': 'has spaces <script>' },
      '/events',
    );
    requestLoggingMiddleware(logger)(
      replaced.req as never,
      replaced.res as never,
      () => undefined,
    );
    expect(replaced.sent['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('does not log health probes but still gives them an id', () => {
    const { logger, lines } = capture();
    const probe = exchange({}, '/health/ready');
    requestLoggingMiddleware(logger)(
      probe.req as never,
      probe.res as never,
      () => undefined,
    );
    probe.res.emit('finish');
    expect(lines).toHaveLength(0);
    expect(probe.sent['x-request-id']).toBeDefined();
  });

  it('marks requests the client abandoned', () => {
    const { logger, lines } = capture();
    const gone = exchange({}, '/events');
    gone.res.writableFinished = false;
    requestLoggingMiddleware(logger)(
      gone.req as never,
      gone.res as never,
      () => undefined,
    );
    gone.res.emit('close');
    expect(lines[0]).toMatchObject({ status: 499 });
  });
});

describe('scrubUrl', () => {
  it('redacts credentials carried in query strings and leaves the rest', () => {
    expect(scrubUrl('/blob/kid_1/upload/f?expires=1&signature=deadbeef')).toBe(
      '/blob/kid_1/upload/f?expires=1&signature=[REDACTED]',
    );
    expect(scrubUrl('/x?TOKEN=1&other=2')).toBe('/x?TOKEN=[REDACTED]&other=2');
    expect(scrubUrl('/api/v4/projects?page=2&private_token=glpat-x')).toBe(
      '/api/v4/projects?page=2&private_token=[REDACTED]',
    );
    expect(scrubUrl('/events?limit=5&q=keyboard')).toBe(
      '/events?limit=5&q=keyboard',
    );
  });
});
