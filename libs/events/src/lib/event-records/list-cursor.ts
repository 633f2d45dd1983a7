import { decodePosition, encodePosition, isUuid } from '@quitanda/kernel';

/** Keyset position: the last record of a page, in (created_at, id) order. */
export interface ListPosition {
  readonly createdAt: Date;
  readonly id: string;
}

export function encodeCursor(position: ListPosition): string {
  return encodePosition({ at: position.createdAt, id: position.id });
}

/** The position a cursor names, or `undefined` when it is malformed. */
export function decodeCursor(cursor: string): ListPosition | undefined {
  const position = decodePosition(cursor, isUuid);
  return position && { createdAt: position.at, id: position.id };
}
