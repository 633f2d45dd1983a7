import type { Caller } from '../../accounts/account.types';
import {
  ErrorTrackingError,
  ErrorTrackingErrorCode,
} from '../../common/error-tracking.errors';
import type { WebContext } from './web-context';

/** The signed-in user as the services' callers (the middleware ensured one). */
export function webCaller(ctx: WebContext): Pick<Caller, 'user'> {
  if (!ctx.session) throw ErrorTrackingError.unauthorized();
  return { user: ctx.session.user };
}

/** A string form field, cut to `max` characters ('' when absent). */
export function formField(body: unknown, name: string, max = 1024): string {
  const value =
    typeof body === 'object' && body !== null
      ? (body as Record<string, unknown>)[name]
      : undefined;
  return typeof value === 'string' ? value.slice(0, max) : '';
}

/**
 * The per-field problems of a validation error, for a page to show beside
 * its form; any other error is thrown on.
 */
export function validationProblemsOf(error: unknown): Record<string, string[]> {
  if (
    !(error instanceof ErrorTrackingError) ||
    error.code !== ErrorTrackingErrorCode.ValidationFailed
  )
    throw error;
  return error.details['fields'] as Record<string, string[]>;
}
