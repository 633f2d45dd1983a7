import type { KinveyDoc } from '../kinvey/kinvey-doc';

/** A user as stored: what authentication and the user calls read. */
export interface StoredUser {
  readonly id: string;
  readonly username: string;
  readonly doc: KinveyDoc;
  readonly passwordHash: string;
  readonly disabled: boolean;
}

export interface UserRow {
  id: string;
  username: string;
  doc: KinveyDoc;
  password_hash: string;
  disabled: boolean;
}

export const USER_COLUMNS = 'id, username, doc, password_hash, disabled';

export function toUser(row: UserRow): StoredUser {
  return {
    id: row.id,
    username: row.username,
    doc: row.doc,
    passwordHash: row.password_hash,
    disabled: row.disabled,
  };
}
