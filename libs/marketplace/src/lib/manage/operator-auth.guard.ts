import { Injectable, createParamDecorator } from '@nestjs/common';
import type { CanActivate, ExecutionContext } from '@nestjs/common';
import { identifyCaller } from '@quitanda/database';
import type { Request } from 'express';

import { parseAuthorization } from '../auth/authorization-header';
import { MarketplaceError } from '../common/marketplace.errors';
import { OperatorSessionsService } from './operator-sessions.service';
import type { Operator } from './operator-sessions.service';

const OPERATORS = new WeakMap<Request, Operator>();

/** The session token of a management call (`Authorization: Kinvey <token>`). */
export function operatorToken(req: Request): string {
  const credentials = parseAuthorization(req.headers.authorization);
  if (credentials?.scheme !== 'kinvey')
    throw MarketplaceError.invalidCredentials(
      'missing or unreadable Authorization header',
    );
  return credentials.token;
}

/**
 * Authenticates a management call by its operator session. Every operator
 * manages every app: the installation is one tenant (docs/security.md).
 */
@Injectable()
export class OperatorAuthGuard implements CanActivate {
  constructor(private readonly sessions: OperatorSessionsService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    const operator = await this.sessions.authenticate(operatorToken(req));
    OPERATORS.set(req, operator);
    identifyCaller(req, `operator:${operator.id}`);
    return true;
  }
}

/** The authenticated operator (with `OperatorAuthGuard`). */
export const CallingOperator = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Operator => {
    const operator = OPERATORS.get(
      context.switchToHttp().getRequest<Request>(),
    );
    if (!operator) throw new Error('OperatorAuthGuard did not run');
    return operator;
  },
);
