import { ErrorTrackingError } from '../common/error-tracking.errors';

/** Where a public key may come from, in Sentry's protocol. */
export interface AuthSources {
  /** `sentry_key` query parameter(s). */
  readonly query?: unknown;
  readonly xSentryAuth?: string;
  readonly authorization?: string;
  /** The envelope header's `dsn`. */
  readonly dsn?: unknown;
}

/** `Sentry sentry_key=..., sentry_version=7`: any order, any spacing. */
export function keyFromSentryHeader(
  value: string | undefined,
): string | undefined {
  if (!value) return undefined;
  const match = /^\s*sentry\s+(.*)$/is.exec(value);
  if (!match?.[1]) return undefined;
  for (const part of match[1].split(',')) {
    const equals = part.indexOf('=');
    if (equals < 0) continue;
    const name = part.slice(0, equals).trim().toLowerCase();
    if (name !== 'sentry_key') continue;
    const key = part
      .slice(equals + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    return key || undefined;
  }
  return undefined;
}

/** The public key of a DSN (`scheme://<key>[:secret]@host/...`). */
export function keyFromDsn(dsn: unknown): string | undefined {
  if (typeof dsn !== 'string' || dsn.length > 2048) return undefined;
  try {
    const url = new URL(dsn);
    return decodeURIComponent(url.username) || undefined;
  } catch {
    return undefined;
  }
}

function keysFromQuery(query: unknown): string[] {
  if (typeof query === 'string') return query ? [query] : [];
  if (Array.isArray(query))
    return query.filter((v): v is string => typeof v === 'string' && v !== '');
  return [];
}

/**
 * The one public key a request authenticates with. The request's own keys
 * (query, `X-Sentry-Auth`, `Authorization`) must agree (400) and decide;
 * the envelope header's `dsn` counts only without them, as GitLab's
 * collector reads it (its own spec posts an envelope whose `dsn` names
 * another key and expects 200). None at all is 401.
 */
export function resolvePublicKey(sources: AuthSources): string {
  const requestKeys = [
    ...keysFromQuery(sources.query),
    keyFromSentryHeader(sources.xSentryAuth),
    keyFromSentryHeader(sources.authorization),
  ].filter((key): key is string => key !== undefined);
  const candidates =
    requestKeys.length > 0 ? requestKeys : [keyFromDsn(sources.dsn)];
  const [key] = candidates;
  if (key === undefined)
    throw ErrorTrackingError.unauthorized(
      'Missing authentication information: no sentry_key in the query, X-Sentry-Auth, Authorization or the envelope dsn',
    );
  if (new Set(candidates).size > 1)
    throw ErrorTrackingError.badRequest(
      'Conflicting authentication: the request carries different public keys',
    );
  return key;
}

/** Whether the request carries a key outside the body (checked before reading it). */
export function hasKeyOutsideBody(sources: AuthSources): boolean {
  return (
    keysFromQuery(sources.query).length > 0 ||
    keyFromSentryHeader(sources.xSentryAuth) !== undefined ||
    keyFromSentryHeader(sources.authorization) !== undefined
  );
}
