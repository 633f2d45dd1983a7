import { Inject, Injectable, createParamDecorator } from '@nestjs/common';
import type { ExecutionContext, NestMiddleware } from '@nestjs/common';
import { identifyCaller } from '@quitanda/database';
import { CLOCK, randomToken } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';
import type { NextFunction, Request, Response } from 'express';

import { ERROR_TRACKING_OPTIONS } from '../../common/error-tracking.constants';
import { ErrorTrackingError } from '../../common/error-tracking.errors';
import type { ErrorTrackingModuleOptions } from '../../common/error-tracking.options';
import { baseUrlOf } from '../../http/base-url';
import {
  ANONYMOUS_COOKIE,
  SESSION_COOKIE,
  parseCookies,
  serializeCookie,
} from './cookies';
import { csrfTokenFor, isValidCsrfToken } from './csrf';
import { WebSessionsService } from '../../sessions/web-sessions.service';
import type { WebSession } from '../../sessions/web-sessions.service';
import {
  NEW_PASSWORD_PATH,
  PASSWORD_PATH,
  SIGN_IN_PATH,
  SIGN_OUT_PATH,
  WEB_SECURITY_HEADERS,
} from './web-paths';

/** What a page handler knows about the browser asking. */
export interface WebContext {
  readonly session: WebSession | undefined;
  /** The token the page's forms carry (`_csrf`). */
  readonly csrfToken: string;
  /** Whether cookies get `Secure` (HTTPS, or HTTPS at a trusted proxy). */
  readonly secure: boolean;
  /**
   * The absolute base URL of links the page hands out (DSNs, an issue's
   * link to its error): worked out when asked, as only two pages need it.
   */
  baseUrl(): string;
}

export interface SignedInContext extends WebContext {
  readonly session: WebSession;
}

const contexts = new WeakMap<Request, WebContext>();

/** The page's context, with the session the middleware required. */
export const Web = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): WebContext =>
    webContextOf(ctx.switchToHttp().getRequest<Request>()),
);

/** The context `WebContextMiddleware` left on this request. */
export function webContextOf(req: Request): WebContext {
  const found = contexts.get(req);
  if (!found) throw new Error('WebContextMiddleware did not run');
  return found;
}

function isPublic(req: Request): boolean {
  return req.path === SIGN_IN_PATH;
}

/** Where a user whose password has expired may still go. */
const WHILE_PASSWORD_EXPIRED = new Set([
  NEW_PASSWORD_PATH,
  PASSWORD_PATH,
  SIGN_IN_PATH,
  SIGN_OUT_PATH,
]);

/** Whether the session's user must choose a new password before anything else. */
export function mustChangePassword(
  session: WebSession | undefined,
  now: Date,
): boolean {
  const expiresAt = session?.user.passwordExpiresAt;
  return !!expiresAt && expiresAt.getTime() <= now.getTime();
}

/**
 * Runs before every page: security headers; the session from its cookie;
 * signed-out visitors sent to sign in (and back afterwards); a user whose
 * password has expired (root's generated one) sent to choose a new one
 * first; every POST refused with 403 unless it carries the browser's CSRF
 * token.
 */
@Injectable()
export class WebContextMiddleware implements NestMiddleware {
  constructor(
    private readonly sessions: WebSessionsService,
    @Inject(ERROR_TRACKING_OPTIONS)
    private readonly options: ErrorTrackingModuleOptions,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async use(req: Request, res: Response, next: NextFunction): Promise<void> {
    try {
      for (const [name, value] of Object.entries(WEB_SECURITY_HEADERS))
        res.setHeader(name, value);
      const cookies = parseCookies(req.headers.cookie);
      const secure = req.secure;
      const sessionId = cookies.get(SESSION_COOKIE);
      const session = await this.sessions.resolve(sessionId);
      // The same caller as the user's API tokens (docs/scaling.md).
      if (session) identifyCaller(req, `user:${session.user.id}`);
      const setCookies: string[] = [];
      if (sessionId && !session)
        setCookies.push(
          serializeCookie(SESSION_COOKIE, '', { secure, maxAgeSeconds: 0 }),
        );
      let secret = session?.id;
      if (!secret) {
        secret = cookies.get(ANONYMOUS_COOKIE);
        if (!secret || secret.length > 128) {
          secret = randomToken(24);
          if (req.method === 'GET')
            setCookies.push(
              serializeCookie(ANONYMOUS_COOKIE, secret, { secure }),
            );
        }
      }
      if (setCookies.length > 0) res.setHeader('Set-Cookie', setCookies);

      const reading = req.method === 'GET' || req.method === 'HEAD';
      if (!session && !isPublic(req)) {
        const back = reading ? req.originalUrl : '/';
        res.redirect(
          reading ? 302 : 303,
          back !== '/'
            ? `${SIGN_IN_PATH}?redirect_to=${encodeURIComponent(back)}`
            : SIGN_IN_PATH,
        );
        return;
      }
      if (
        mustChangePassword(session, this.clock.now()) &&
        !WHILE_PASSWORD_EXPIRED.has(req.path)
      ) {
        res.redirect(reading ? 302 : 303, NEW_PASSWORD_PATH);
        return;
      }
      if (!reading) {
        const body = req.body as Record<string, unknown> | undefined;
        if (!isValidCsrfToken(secret, body?.['_csrf']))
          throw ErrorTrackingError.forbidden(
            'The form could not be verified (missing or invalid CSRF token).',
          );
      }
      const options = this.options;
      contexts.set(req, {
        session,
        csrfToken: csrfTokenFor(secret),
        secure,
        baseUrl: () => baseUrlOf(req, options),
      });
      next();
    } catch (error) {
      next(error);
    }
  }
}
