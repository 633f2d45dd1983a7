import type { AppRecord } from '../apps/app.types';
import type { StoredUser } from './stored-user';

/** Who is calling, within one app. */
export type Principal =
  | { readonly kind: 'master'; readonly app: AppRecord }
  | { readonly kind: 'app'; readonly app: AppRecord }
  | {
      readonly kind: 'user';
      readonly app: AppRecord;
      readonly user: StoredUser;
      /** Digest of the session token used, when it was one. */
      readonly tokenDigest?: string;
    };

/** The `_acl.creator` of what this principal writes. */
export function creatorOf(principal: Principal): string {
  return principal.kind === 'user' ? principal.user.id : principal.app.appKey;
}
