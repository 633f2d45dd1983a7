/** PostgreSQL SQLSTATE of a unique-constraint violation. */
const UNIQUE_VIOLATION = '23505';

interface PgLikeError {
  code?: unknown;
  constraint?: unknown;
  driverError?: PgLikeError;
}

function pgError(error: unknown): PgLikeError | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const candidate = error as PgLikeError;
  return candidate.driverError ?? candidate;
}

/** True when `error` is a unique violation, optionally of the named constraint. */
export function isUniqueViolation(
  error: unknown,
  constraint?: string,
): boolean {
  const pg = pgError(error);
  if (!pg || pg.code !== UNIQUE_VIOLATION) return false;
  return constraint === undefined || pg.constraint === constraint;
}

const CONNECTION_FAILURE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EPIPE',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000',
  '08003',
  '08006',
  '08001',
  '08004',
]);

/** True when the database could not be reached (as opposed to a bad query). */
export function isConnectionFailure(error: unknown): boolean {
  const pg = pgError(error);
  if (!pg) return false;
  if (typeof pg.code === 'string' && CONNECTION_FAILURE_CODES.has(pg.code)) {
    return true;
  }
  const message = error instanceof Error ? error.message : '';
  return /timeout exceeded when trying to connect|Connection terminated|connect ECONNREFUSED|Query read timeout/i.test(
    message,
  );
}
