import { requestIdOf } from '@quitanda/http';
import type { Request } from 'express';

import type { Principal } from '../auth/principal';
import type { FlexService } from './business-logic.types';

/**
 * Headers of the caller's request a Flex service sees (its
 * `requestContext` and user-context calls back). The caller's
 * `Authorization` only when it is a session token: a Basic one carries a
 * password or one of the app's own secrets, which no service is handed.
 */
const FORWARDED = [
  'x-kinvey-api-version',
  'x-kinvey-client-app-version',
  'x-kinvey-custom-request-properties',
  'x-kinvey-device-information',
  'user-agent',
  'content-type',
] as const;

const PRINTABLE = /^[\x20-\x7e]*$/;

function originalHeaders(req: Request): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const auth = req.headers.authorization;
  if (auth && /^kinvey /i.test(auth)) headers['authorization'] = auth;
  return headers;
}

/**
 * What Kinvey's side of the External Flex protocol sends with every task
 * (kinvey-code-task-runner's HTTP receiver reads these): the shared
 * secret, the app (with the call-back secrets of this service in place of
 * the app's own, and where to call back), the caller.
 */
export function flexHeaders(
  service: FlexService,
  principal: Principal,
  req: Request,
  baasUrl: string,
): Record<string, string> {
  const appKey = principal.app.appKey;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-auth-key': service.sharedSecret,
    'x-kinvey-environment-id': appKey,
    'x-kinvey-request-id': requestIdOf(req),
    'x-kinvey-app-metadata': JSON.stringify({
      _id: appKey,
      appsecret: service.callbackAppSecret,
      mastersecret: service.callbackMasterSecret,
      baasUrl,
      blFlags: {},
    }),
    'x-kinvey-original-request-headers': JSON.stringify(originalHeaders(req)),
  };
  if (principal.kind === 'user') {
    headers['x-kinvey-user-id'] = principal.user.id;
    // Header values are bytes: a username outside printable ASCII is left out.
    if (PRINTABLE.test(principal.user.username))
      headers['x-kinvey-username'] = principal.user.username;
  }
  return headers;
}
