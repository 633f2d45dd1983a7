import { Injectable, createParamDecorator } from '@nestjs/common';
import type { CanActivate, ExecutionContext } from '@nestjs/common';
import { identifyCaller } from '@quitanda/database';
import type { Request } from 'express';
import type { IncomingMessage } from 'node:http';

import { ErrorTrackingError } from '../common/error-tracking.errors';
import type { Caller } from './account.types';
import { AccountsService } from './accounts.service';

const CALLERS = new WeakMap<IncomingMessage, Caller>();
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * `PRIVATE-TOKEN: <token>`, `Authorization: Bearer <token>` or, as GitLab
 * also accepts, `?private_token=<token>` (the request log redacts it).
 */
export function accessTokenOf(
  req: Pick<Request, 'headers' | 'query'>,
): string | undefined {
  const privateToken = req.headers['private-token'];
  if (typeof privateToken === 'string' && privateToken.trim())
    return privateToken.trim();
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (match) return match[1];
  const queryToken = req.query['private_token'];
  return typeof queryToken === 'string' && queryToken.trim()
    ? queryToken.trim()
    : undefined;
}

/**
 * GitLab's API authentication: a personal access token, 401 without a live
 * one; writes need the `api` scope (a `read_api` token gets 403).
 */
@Injectable()
export class TokenAuthGuard implements CanActivate {
  constructor(private readonly accounts: AccountsService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    const caller = await this.accounts.authenticate(accessTokenOf(req));
    CALLERS.set(req, caller);
    // Whose writes this request's replica reads must see (docs/scaling.md).
    identifyCaller(req, `user:${caller.user.id}`);
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
