import { Inject, Injectable } from '@nestjs/common';
import type { CanActivate, ExecutionContext } from '@nestjs/common';
import { SecretMatcher } from '@quitanda/kernel';
import type { Request } from 'express';

import { EVENTS_OPTIONS } from '../common/events.constants';
import { EventsError } from '../common/events.errors';
import type { EventsModuleOptions } from '../common/events.options';

/**
 * When `EVENTS_WRITE_TOKEN` is configured, writes need
 * `Authorization: Bearer <token>`; without it they stay open, as in the
 * original API. Only the token's hash is kept in memory.
 */
@Injectable()
export class WriteTokenGuard implements CanActivate {
  private readonly matcher?: SecretMatcher;

  constructor(@Inject(EVENTS_OPTIONS) options: EventsModuleOptions) {
    if (options.writeToken)
      this.matcher = new SecretMatcher(options.writeToken);
  }

  canActivate(context: ExecutionContext): boolean {
    if (!this.matcher) return true;
    const header = context.switchToHttp().getRequest<Request>()
      .headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (match?.[1] && this.matcher.matches(match[1])) return true;
    throw EventsError.writeTokenRequired();
  }
}
