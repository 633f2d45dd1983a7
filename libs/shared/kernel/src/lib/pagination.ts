/**
 * Pagination every context shares: opaque keyset cursors, the page of a
 * keyset read, and the offset of a numbered page. What a bad cursor or page
 * number answers is each context's own error.
 */

/** An opaque keyset cursor: the boundary's parts, as base64url JSON. */
export function encodeCursor(parts: readonly string[]): string {
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}

/** The `count` string parts of a cursor, or `undefined` when malformed. */
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

/** The last row of a page in (timestamp, id) order. */
export interface KeysetPosition {
  readonly at: Date;
  readonly id: string;
}

export function encodePosition(position: KeysetPosition): string {
  return encodeCursor([position.at.toISOString(), position.id]);
}

/**
 * The (timestamp, id) position a cursor names, or `undefined` when it is
 * malformed or its id fails `isId`.
 */
export function decodePosition(
  cursor: string,
  isId: (id: string) => boolean,
): KeysetPosition | undefined {
  const parts = decodeCursor(cursor, 2);
  if (!parts) return undefined;
  const [at, id] = parts as [string, string];
  const date = new Date(at);
  if (Number.isNaN(date.getTime()) || !isId(id)) return undefined;
  return { at: date, id };
}

/**
 * A keyset page from a read of `limit + 1` rows (the extra row tells
 * whether another page follows): the rows shown, and the last of them when
 * another page follows, which the next cursor names.
 */
export function keysetPage<T>(
  rows: readonly T[],
  limit: number,
): { items: T[]; next: T | undefined } {
  const items = rows.slice(0, limit);
  return {
    items,
    next: rows.length > limit ? items[items.length - 1] : undefined,
  };
}

/** The rows a numbered page skips: pages count from 1. */
export function pageOffset(page: number, perPage: number): number {
  return (page - 1) * perPage;
}
