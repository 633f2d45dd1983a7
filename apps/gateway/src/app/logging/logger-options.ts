import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Params } from 'nestjs-pino';

import type { GatewayConfig } from '../config/gateway-config';

/** Query parameters that carry credentials (DSN keys, signed URLs, tokens). */
const SECRET_QUERY_PARAMS =
  /([?&](?:sentry_key|sentry_secret|token|access_token|private_token|signature|sig|key)=)[^&]*/gi;

/** Request ids we accept from a client or proxy: short and printable. */
const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function scrubUrl(url: string | undefined): string | undefined {
  return url?.replace(SECRET_QUERY_PARAMS, '$1[REDACTED]');
}

/**
 * pino-http settings: one JSON line per request, a request id echoed in
 * `X-Request-Id`, and no credential ever written: auth headers, cookies and
 * secret query parameters are redacted before serialisation.
 */
export function loggerOptions(config: GatewayConfig): Params {
  return {
    pinoHttp: {
      level: config.logLevel,
      genReqId(req: IncomingMessage, res: ServerResponse) {
        const incoming = req.headers['x-request-id'];
        const id =
          typeof incoming === 'string' && VALID_REQUEST_ID.test(incoming)
            ? incoming
            : randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers["private-token"]',
          'req.headers["x-sentry-auth"]',
          'req.headers.cookie',
          'req.headers["x-kinvey-custom-request-properties"]',
          'res.headers["set-cookie"]',
          '*.password',
          '*.token',
        ],
        censor: '[REDACTED]',
      },
      serializers: {
        req(req: {
          id: unknown;
          method: string;
          url: string;
          headers: Record<string, unknown>;
          remoteAddress?: string;
        }) {
          return {
            id: req.id,
            method: req.method,
            url: scrubUrl(req.url),
            headers: req.headers,
            remoteAddress: req.remoteAddress,
          };
        },
      },
      customLogLevel(_req, res, error) {
        if (error || res.statusCode >= 500) return 'error';
        return 'info';
      },
      // Health probes every few seconds would drown the log.
      autoLogging: {
        ignore: (req) =>
          req.url === '/health/live' || req.url === '/health/ready',
      },
    },
  };
}
