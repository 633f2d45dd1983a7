/** A record, user or file as Kinvey clients see it. */
export type KinveyDoc = Record<string, unknown>;

export interface Acl {
  creator?: string;
  gr?: boolean;
  gw?: boolean;
  r?: string[];
  w?: string[];
  groups?: unknown;
}

export function isPlainObject(
  value: unknown,
): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function aclOf(doc: KinveyDoc): Acl {
  return isPlainObject(doc['_acl']) ? (doc['_acl'] as Acl) : {};
}
