import type { SqlParams } from './sql-params';

/**
 * Whose read rights a read runs with (`readerOf` in `auth/access`): a
 * user's id, or `null` for app credentials, which read as no user at all:
 * only what every user may read.
 */
export type Reader = string | null;

/**
 * Kinvey's `_acl` rules as SQL conditions over a document column
 * (`canRead`/`canWrite` in `auth/access` are the same rules for one
 * document in memory): readable by every user unless `_acl.gr` is false,
 * then only by its creator and the ids in `_acl.r`.
 */
export function readableSql(
  doc: string,
  reader: Reader,
  params: SqlParams,
  privately = false,
): string {
  return readableAclSql(`${doc}->'_acl'`, reader, params, privately);
}

/** `readableSql` over an `_acl` value (a tombstone keeps only that). */
export function readableAclSql(
  acl: string,
  reader: Reader,
  params: SqlParams,
  privately = false,
): string {
  // A private collection ignores `gr` and lets `_acl.w` read too.
  const shared = privately
    ? 'false'
    : `${acl}->'gr' IS DISTINCT FROM 'false'::jsonb`;
  if (reader === null) return `(${shared})`;
  const id = params.add(reader);
  const writers = privately
    ? `
    OR (jsonb_typeof(${acl}->'w') = 'array' AND ${acl}->'w' ? ${id})`
    : '';
  return `(${shared}
    OR ${acl}->>'creator' = ${id}
    OR (jsonb_typeof(${acl}->'r') = 'array' AND ${acl}->'r' ? ${id})${writers})`;
}

/**
 * Whose rights a read runs with under a collection's permission level
 * (`readScope` in `records/collection-access` decides it).
 */
export interface ReadScope {
  /** undefined: every record (master, or a user of a "full" collection). */
  readonly readableBy?: Reader;
  /** Kinvey's "Private" level: `_acl.gr` grants nothing, `_acl.w` reads. */
  readonly privately?: boolean;
}

/** `readableSql`, or `true` when there is no reader (master reads all). */
export function readableByOrAll(
  doc: string,
  reader: Reader | undefined,
  params: SqlParams,
): string {
  return scopeSql(doc, { readableBy: reader }, params);
}

/** `readableSql` for a read scope: `true` when it reads every record. */
export function scopeSql(
  doc: string,
  scope: ReadScope,
  params: SqlParams,
): string {
  return scopeAclSql(`${doc}->'_acl'`, scope, params);
}

/** `scopeSql` over an `_acl` value. */
export function scopeAclSql(
  acl: string,
  scope: ReadScope,
  params: SqlParams,
): string {
  return scope.readableBy === undefined
    ? 'true'
    : readableAclSql(acl, scope.readableBy, params, scope.privately);
}

export function writableSql(
  doc: string,
  userParam: string,
  privately = false,
): string {
  const global = privately ? 'false' : `${doc}->'_acl'->'gw' = 'true'::jsonb`;
  return `(${global} OR ${doc}->'_acl'->>'creator' = ${userParam}
                  OR (jsonb_typeof(${doc}->'_acl'->'w') = 'array' AND ${doc}->'_acl'->'w' ? ${userParam}))`;
}
