import { ErrorTrackingError } from '../common/error-tracking.errors';
import { MAX_IGNORE_COUNT, MAX_IGNORE_MINUTES } from './error.types';
import type { ErrorStatus, IgnoreUntil } from './error.types';

/** An ignore condition as each API names its parts (each optional). */
export interface IgnoreFields {
  readonly minutes: { readonly name: string; readonly value: unknown };
  readonly events: { readonly name: string; readonly value: unknown };
  readonly users: { readonly name: string; readonly value: unknown };
}

function bounded(
  field: { readonly name: string; readonly value: unknown },
  max: number,
): number | undefined {
  const { name, value } = field;
  if (value === undefined || value === null) return undefined;
  const number =
    typeof value === 'string' && /^\d{1,10}$/.test(value)
      ? Number(value)
      : value;
  if (
    typeof number !== 'number' ||
    !Number.isInteger(number) ||
    number < 1 ||
    number > max
  )
    throw ErrorTrackingError.invalidParameter(
      `${name} does not have a valid value (a whole number from 1 to ${max})`,
    );
  return number;
}

/**
 * The condition that ends an ignore, checked the same way for the GitLab
 * API, Sentry's issue API and the web UI: whole numbers within bounds, and
 * only when ignoring (a condition on another status is a 400, not dropped).
 */
export function ignoreUntilOf(
  status: ErrorStatus,
  fields: IgnoreFields,
): IgnoreUntil {
  const minutes = bounded(fields.minutes, MAX_IGNORE_MINUTES);
  const events = bounded(fields.events, MAX_IGNORE_COUNT);
  const users = bounded(fields.users, MAX_IGNORE_COUNT);
  const given = [minutes, events, users].some((v) => v !== undefined);
  if (given && status !== 'ignored')
    throw ErrorTrackingError.invalidParameter(
      `${fields.minutes.name}, ${fields.events.name}, ${fields.users.name} are only valid with status ignored`,
    );
  return {
    ...(minutes !== undefined ? { minutes } : {}),
    ...(events !== undefined ? { events } : {}),
    ...(users !== undefined ? { users } : {}),
  };
}
