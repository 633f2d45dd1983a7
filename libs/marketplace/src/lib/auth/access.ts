import { aclOf } from '../kinvey/kinvey-doc';
import type { KinveyDoc } from '../kinvey/kinvey-doc';
import { MarketplaceError } from '../marketplace.errors';
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

/** Kinvey's "Shared" default, refined by `_acl.gr` and `_acl.r`. */
export function canRead(principal: Principal, doc: KinveyDoc): boolean {
  if (principal.kind !== 'user') return true;
  const acl = aclOf(doc);
  if (acl.gr !== false) return true;
  const id = principal.user.id;
  return acl.creator === id || (Array.isArray(acl.r) && acl.r.includes(id));
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
