/**
 * Kinvey's `_acl` rules as SQL conditions over a document column, given
 * the placeholder of the user's id (`canRead`/`canWrite` in `auth/access`
 * are the same rules for one document in memory).
 */
export function readableSql(doc: string, userParam: string): string {
  return `(${doc}->'_acl'->'gr' IS DISTINCT FROM 'false'::jsonb
    OR ${doc}->'_acl'->>'creator' = ${userParam}
    OR (jsonb_typeof(${doc}->'_acl'->'r') = 'array' AND ${doc}->'_acl'->'r' ? ${userParam}))`;
}

export function writableSql(doc: string, userParam: string): string {
  return `(${doc}->'_acl'->'gw' = 'true'::jsonb OR ${doc}->'_acl'->>'creator' = ${userParam}
                  OR (jsonb_typeof(${doc}->'_acl'->'w') = 'array' AND ${doc}->'_acl'->'w' ? ${userParam}))`;
}
