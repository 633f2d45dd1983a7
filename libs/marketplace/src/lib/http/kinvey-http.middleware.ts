import { randomUUID } from 'node:crypto';

import { jsonBody, requestIdOf, safeUrl } from '@quitanda/http';
import type { NextFunction, Request, Response } from 'express';

import { SERVER_API_VERSION } from '../common/marketplace.constants';
import { KINVEY_CORS_HEADERS, preflightHeaders } from './kinvey-cors';

type Middleware = (req: Request, res: Response, next: NextFunction) => void;

/** The signed upload URL reads raw bytes; nothing else here takes them. */
const UPLOAD_PATH = /^\/blob\/[^/]+\/_upload\//;

/** The API version the client asked for, when it is a sane number. */
export function apiVersionOf(req: Request): number {
  const raw = req.headers['x-kinvey-api-version'];
  const value = Number.parseInt(
    Array.isArray(raw) ? (raw[0] ?? '') : (raw ?? ''),
    10,
  );
  return Number.isFinite(value) && value > 0 ? value : 1;
}

/**
 * What every Kinvey path shares: CORS (preflights answered here), the
 * `X-Kinvey-Request-Id`, `X-Kinvey-API-Version` and, on reads,
 * `X-Kinvey-Request-Start` headers, and JSON bodies up to `maxBodyBytes`
 * (whatever the Content-Type says: the SDKs send JSON even on GET).
 */
export function kinveyHttp(maxBodyBytes: number): Middleware {
  const json = jsonBody({
    limitBytes: maxBodyBytes,
    requireJsonContentType: false,
  });
  const url = safeUrl();
  return (req, res, next) => {
    for (const [name, value] of Object.entries(KINVEY_CORS_HEADERS))
      res.setHeader(name, value);
    if (req.method === 'OPTIONS') {
      const requested = req.headers['access-control-request-headers'];
      for (const [name, value] of Object.entries(
        preflightHeaders(
          Array.isArray(requested) ? requested.join(',') : requested,
        ),
      ))
        res.setHeader(name, value);
      res.status(204).end();
      return;
    }
    res.setHeader('X-Kinvey-Request-Id', requestIdOf(req) || randomUUID());
    res.setHeader('X-Kinvey-API-Version', SERVER_API_VERSION);
    if (req.method === 'GET' || req.method === 'HEAD')
      res.setHeader('X-Kinvey-Request-Start', new Date().toISOString());
    if (UPLOAD_PATH.test(req.path)) {
      url(req, res, next);
      return;
    }
    json(req, res, next);
  };
}
