import { Injectable, createParamDecorator } from '@nestjs/common';
import type { CanActivate, ExecutionContext } from '@nestjs/common';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

import { ErrorTrackingError } from '../error-tracking.errors';
import type { Caller } from './account.types';
import { AccountsService } from './accounts.service';

const CALLERS = new WeakMap<IncomingMessage, Caller>();
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `PRIVATE-TOKEN: <token>` or `Authorization: Bearer <token>`. */
export function accessTokenOf(
  headers: IncomingHttpHeaders,
): string | undefined {
  const privateToken = headers['private-token'];
  if (typeof privateToken === 'string' && privateToken.trim())
    return privateToken.trim();
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
  return match?.[1];
}

/**
 * GitLab's API authentication: a personal access token, 401 without a live
 * one; writes need the `api` scope (a `read_api` token gets 403).
 */
@Injectable()
export class TokenAuthGuard implements CanActivate {
  constructor(private readonly accounts: AccountsService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<IncomingMessage>();
    const caller = await this.accounts.authenticate(accessTokenOf(req.headers));
    CALLERS.set(req, caller);
    if (
      !READ_METHODS.has(req.method ?? 'GET') &&
      !caller.token.scopes.includes('api')
    )
      throw ErrorTrackingError.insufficientScope();
    return true;
  }
}

/** The authenticated caller (controllers behind `TokenAuthGuard`). */
export const CurrentCaller = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Caller => {
    const caller = CALLERS.get(
      context.switchToHttp().getRequest<IncomingMessage>(),
    );
    if (!caller) throw ErrorTrackingError.unauthorized();
    return caller;
  },
);
