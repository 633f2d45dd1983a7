import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';

import pinoHttp from 'pino-http';
import type { Options } from 'pino-http';

import { loadConfig } from '../config/gateway-config';
import { loggerOptions } from './logger-options';

function fakeExchange(headers: Record<string, string>, url: string) {
  const req = Object.assign(new EventEmitter(), {
    method: 'POST',
    url,
    headers,
    socket: { remoteAddress: '127.0.0.1' },
  });
  const outgoing: Record<string, string> = {};
  const res = Object.assign(new EventEmitter(), {
    statusCode: 200,
    setHeader: (name: string, value: string) => {
      outgoing[name.toLowerCase()] = value;
    },
    getHeader: (name: string) => outgoing[name.toLowerCase()],
    getHeaders: () => outgoing,
  });
  return { req, res, outgoing };
}

describe('request logging', () => {
  it('writes one line per request with its id and no credential', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const options = loggerOptions(loadConfig({ LOG_LEVEL: 'info' }))
      .pinoHttp as Options;
    const middleware = pinoHttp(options, sink);
    const { req, res, outgoing } = fakeExchange(
      {
        authorization: 'Basic a2lkX3g6c2VjcmV0LWFwcC1zZWNyZXQ=',
        'private-token': 'glpat-very-secret-token',
        'x-sentry-auth': 'Sentry sentry_key=glet_secretkey, sentry_version=7',
        cookie: 'session=abcdef-secret-cookie',
        'user-agent': 'test',
      },
      '/api/v4/error_tracking/collector/api/1/envelope/?sentry_key=glet_querykey&sentry_version=7',
    );

    middleware(req as never, res as never, () => undefined);
    res.emit('finish');

    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0] as string);
    expect(entry.req.id).toBe(outgoing['x-request-id']);
    const text = lines[0] as string;
    for (const secret of [
      'a2lkX3g6c2VjcmV0LWFwcC1zZWNyZXQ=',
      'glpat-very-secret-token',
      'glet_secretkey',
      'abcdef-secret-cookie',
      'glet_querykey',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(entry.req.headers['user-agent']).toBe('test');
    expect(entry.req.url).toContain('sentry_key=[REDACTED]');
  });
});
