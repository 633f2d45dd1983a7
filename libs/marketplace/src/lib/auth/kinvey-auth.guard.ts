import { Injectable, createParamDecorator } from '@nestjs/common';
import type { CanActivate, ExecutionContext } from '@nestjs/common';
import { identifyCaller } from '@quitanda/database';
import type { Request } from 'express';

import { AuthService } from './auth.service';
import type { Principal } from './principal';

const PRINCIPALS = new WeakMap<Request, Principal>();

/**
 * Authenticates every Kinvey call against the app of its path; a failure
 * is the Kinvey error (AppNotFound, InvalidCredentials...). What the
 * principal may do is decided by the service of the call.
 */
@Injectable()
export class KinveyAuthGuard implements CanActivate {
  constructor(private readonly auth: AuthService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    const appKey = String(req.params['appKey'] ?? '');
    const principal = await this.auth.authenticate(
      appKey,
      req.headers.authorization,
    );
    PRINCIPALS.set(req, principal);
    // Whose writes this request's replica reads must see (docs/scaling.md).
    identifyCaller(
      req,
      principal.kind === 'user'
        ? `user:${appKey}:${principal.user.id}`
        : `${principal.kind}:${appKey}`,
    );
    return true;
  }
}

/** The caller `KinveyAuthGuard` authenticated for this request. */
export function callerOf(req: Request): Principal {
  const principal = PRINCIPALS.get(req);
  if (!principal) throw new Error('KinveyAuthGuard did not run');
  return principal;
}

/** The authenticated caller (with `KinveyAuthGuard`). */
export const Caller = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Principal =>
    callerOf(context.switchToHttp().getRequest<Request>()),
);
