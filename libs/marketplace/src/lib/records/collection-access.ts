import { canRead, canWrite, readerOf, requireAccess } from '../auth/access';
import type { Principal } from '../auth/principal';
import { aclOf } from '../kinvey/kinvey-doc';
import type { KinveyDoc } from '../kinvey/kinvey-doc';
import { MarketplaceError } from '../common/marketplace.errors';
import type { ReadScope } from '../query/acl-conditions';
import type { PermissionLevel } from '../collections/collection-settings';

/** Whose rights a read runs with under the collection's level. */
export function readScope(
  principal: Principal,
  level: PermissionLevel,
): ReadScope {
  requireAccess(principal, 'read');
  const reader = readerOf(principal);
  if (level === 'full' && principal.kind === 'user')
    return { readableBy: undefined, privately: false };
  return { readableBy: reader, privately: level === 'private' };
}

function listed(list: unknown, id: string): boolean {
  return Array.isArray(list) && list.includes(id);
}

export function mayRead(
  principal: Principal,
  level: PermissionLevel,
  doc: KinveyDoc,
): boolean {
  if (principal.kind === 'master') return true;
  if (level === 'full' && principal.kind === 'user') return true;
  if (level !== 'private') return canRead(principal, doc);
  if (principal.kind === 'app') return false;
  const acl = aclOf(doc);
  const id = principal.user.id;
  return acl.creator === id || listed(acl.r, id) || listed(acl.w, id);
}

/** Creating in the collection: "read-only" ones take master writes only. */
export function requireCreate(
  principal: Principal,
  level: PermissionLevel,
): void {
  if (level === 'read-only' && principal.kind !== 'master')
    throw MarketplaceError.insufficient('the collection is read-only');
  requireAccess(principal, 'create');
}

export function mayWrite(
  principal: Principal,
  level: PermissionLevel,
  doc: KinveyDoc,
): boolean {
  if (principal.kind === 'master') return true;
  if (principal.kind === 'app' || level === 'read-only') return false;
  if (level === 'full') return true;
  if (level === 'shared') return canWrite(principal, doc);
  const acl = aclOf(doc);
  return acl.creator === principal.user.id || listed(acl.w, principal.user.id);
}
