import { isUuid } from '@quitanda/kernel';

/** Keyset position: the last record of a page, in (created_at, id) order. */
export interface ListPosition {
  readonly createdAt: Date;
  readonly id: string;
}

export function encodeCursor(position: ListPosition): string {
  return Buffer.from(
    JSON.stringify([position.createdAt.toISOString(), position.id]),
  ).toString('base64url');
}

/** The position a cursor names, or `undefined` when it is malformed. */
export function decodeCursor(cursor: string): ListPosition | undefined {
  try {
    const decoded: unknown = JSON.parse(
      Buffer.from(cursor, 'base64url').toString('utf8'),
    );
    if (!Array.isArray(decoded) || decoded.length !== 2) return undefined;
    const [createdAt, id] = decoded as unknown[];
    if (typeof createdAt !== 'string' || typeof id !== 'string')
      return undefined;
    const date = new Date(createdAt);
    if (Number.isNaN(date.getTime()) || !isUuid(id)) return undefined;
    return { createdAt: date, id };
  } catch {
    return undefined;
  }
}
