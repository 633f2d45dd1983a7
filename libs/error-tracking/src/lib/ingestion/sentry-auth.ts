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
 * The one public key a request authenticates with. Every transport may
 * carry it; when several do they must agree (400); none at all is 401.
 */
export function resolvePublicKey(sources: AuthSources): string {
  const candidates = [
    ...keysFromQuery(sources.query),
    keyFromSentryHeader(sources.xSentryAuth),
    keyFromSentryHeader(sources.authorization),
    keyFromDsn(sources.dsn),
  ].filter((key): key is string => key !== undefined);
  if (candidates.length === 0)
    throw ErrorTrackingError.unauthorized(
      'Missing authentication information: no sentry_key in the query, X-Sentry-Auth, Authorization or the envelope dsn',
    );
  const distinct = new Set(candidates);
  if (distinct.size > 1)
    throw ErrorTrackingError.badRequest(
      'Conflicting authentication: the request carries different public keys',
    );
  return candidates[0] as string;
}

/** Whether the request carries a key outside the body (checked before reading it). */
export function hasKeyOutsideBody(sources: AuthSources): boolean {
  return (
    keysFromQuery(sources.query).length > 0 ||
    keyFromSentryHeader(sources.xSentryAuth) !== undefined ||
    keyFromSentryHeader(sources.authorization) !== undefined
  );
}
