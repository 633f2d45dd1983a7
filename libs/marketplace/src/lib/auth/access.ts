import { aclOf, isPlainObject } from '../kinvey/kinvey-doc';
import type { KinveyDoc } from '../kinvey/kinvey-doc';
import { MarketplaceError } from '../common/marketplace.errors';
import type { Reader } from '../query/acl-conditions';
import { creatorOf } from './principal';
import type { Principal } from './principal';

export type AppOperation = 'read' | 'create' | 'write';

/**
 * Whether app credentials may do this, per the app's `appCredentialAccess`
 * (`read` lists and gets; `read-create` also creates; never more).
 */
export function requireAccess(
  principal: Principal,
  operation: AppOperation,
): void {
  if (principal.kind !== 'app') return;
  const access = principal.app.appCredentialAccess;
  const allowed =
    (operation === 'read' && access !== 'none') ||
    (operation === 'create' && access === 'read-create');
  if (!allowed)
    throw MarketplaceError.insufficient(`app credentials may not ${operation}`);
}

export function requireUser(
  principal: Principal,
): asserts principal is Extract<Principal, { kind: 'user' }> {
  if (principal.kind !== 'user')
    throw MarketplaceError.insufficient('this call needs a user');
}

export function requireUserOrMaster(principal: Principal): void {
  if (principal.kind === 'app')
    throw MarketplaceError.insufficient(
      'this call needs a user or the master secret',
    );
}

export function requireMaster(principal: Principal): void {
  if (principal.kind !== 'master')
    throw MarketplaceError.insufficient('this call needs the master secret');
}

/**
 * The operator's calls (administration): the master secret itself, not a
 * Flex service calling back with the one it was handed.
 */
export function requireOperator(principal: Principal): void {
  requireMaster(principal);
  if (principal.kind === 'master' && principal.flexService !== undefined)
    throw MarketplaceError.insufficient(
      "a Flex service's credentials do not administer the app",
    );
}

/**
 * Whose read rights the principal reads with: undefined for master (it
 * reads everything), a user as itself, and app credentials, the app's
 * public identity, as no user at all (`null`): only what every user may
 * read. `readableSql` applies it in SQL.
 */
export function readerOf(principal: Principal): Reader | undefined {
  if (principal.kind === 'master') return undefined;
  return principal.kind === 'user' ? principal.user.id : null;
}

/** Kinvey's "Shared" default, refined by `_acl.gr` and `_acl.r`. */
export function canRead(principal: Principal, doc: KinveyDoc): boolean {
  const reader = readerOf(principal);
  if (reader === undefined) return true;
  const acl = aclOf(doc);
  if (acl.gr !== false) return true;
  return (
    reader !== null &&
    (acl.creator === reader || (Array.isArray(acl.r) && acl.r.includes(reader)))
  );
}

/** Writable by its creator, the ids in `_acl.w`, or anyone with `_acl.gw`. */
export function canWrite(principal: Principal, doc: KinveyDoc): boolean {
  if (principal.kind === 'master') return true;
  if (principal.kind === 'app') return false;
  const acl = aclOf(doc);
  const id = principal.user.id;
  return (
    acl.gw === true ||
    acl.creator === id ||
    (Array.isArray(acl.w) && acl.w.includes(id))
  );
}

/** What a client may set in `_acl`; `creator` is the server's. */
const ACL_FIELDS = ['gr', 'gw', 'r', 'w', 'groups'];

function clientAcl(value: unknown): Record<string, unknown> {
  const acl: Record<string, unknown> = {};
  if (!isPlainObject(value)) return acl;
  for (const field of ACL_FIELDS)
    if (value[field] !== undefined) acl[field] = value[field];
  return acl;
}

/** Whether the principal may change the document's `_acl` (and a file's `_public`). */
export function ownsAcl(principal: Principal, existing: KinveyDoc): boolean {
  return (
    principal.kind === 'master' ||
    (principal.kind === 'user' && aclOf(existing).creator === principal.user.id)
  );
}

/**
 * The `_acl` a write stores: for a new record or file, what the client
 * sent with the principal as creator; for an existing one, what its
 * creator or master sends (the creator kept), else the current one, even
 * for a user granted `_acl.w`.
 */
export function nextAcl(
  principal: Principal,
  sent: unknown,
  existing: KinveyDoc | undefined,
): Record<string, unknown> {
  if (!existing) return { ...clientAcl(sent), creator: creatorOf(principal) };
  const current = aclOf(existing);
  return sent !== undefined && ownsAcl(principal, existing)
    ? { ...clientAcl(sent), creator: current.creator }
    : { ...current };
}
