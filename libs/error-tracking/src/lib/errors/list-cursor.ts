import type { ErrorSort } from './error.types';

/** Opaque keyset cursors of the errors and events lists. */
export function encodeCursor(parts: readonly string[]): string {
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}

/** The parts of a cursor with `count` string parts; undefined if malformed. */
export function decodeCursor(
  cursor: string,
  count: number,
): string[] | undefined {
  try {
    const parts: unknown = JSON.parse(
      Buffer.from(cursor, 'base64url').toString('utf8'),
    );
    if (
      !Array.isArray(parts) ||
      parts.length !== count ||
      !parts.every((part) => typeof part === 'string')
    )
      return undefined;
    return parts as string[];
  } catch {
    return undefined;
  }
}

export function isValidSortValue(sort: ErrorSort, value: string): boolean {
  return sort === 'frequency'
    ? /^\d{1,19}$/.test(value)
    : !Number.isNaN(Date.parse(value));
}
