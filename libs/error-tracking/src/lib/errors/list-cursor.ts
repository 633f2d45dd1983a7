import type { ErrorSort } from './error.types';

/** The sort value of an errors-list cursor (its keyset boundary). */
export function isValidSortValue(sort: ErrorSort, value: string): boolean {
  return sort === 'frequency'
    ? /^\d{1,19}$/.test(value)
    : !Number.isNaN(Date.parse(value));
}

/** An event's id in an events-list cursor: 32 lowercase hex digits. */
export function isEventId(id: string): boolean {
  return /^[0-9a-f]{32}$/.test(id);
}
