import { endWithBody } from '@quitanda/http';
import type { Request, Response } from 'express';

import { API_BODY_LIMIT_BYTES } from '../common/error-tracking.constants';
import { ErrorTrackingError } from '../common/error-tracking.errors';
import { readBody } from '../http/read-body';

/** A JSON body, read here: no body parser runs on Sentry's web API. */
export async function readJson(req: Request): Promise<unknown> {
  const body = await readBody(req, API_BODY_LIMIT_BYTES);
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw ErrorTrackingError.badRequest('The body is not valid JSON.');
  }
}

export function send(res: Response, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  endWithBody(res, JSON.stringify(body));
}

/** Both spellings: sentry-cli always sends the trailing slash, curl users may not. */
export function paths(path: string): string[] {
  return [path, `${path}/`];
}
