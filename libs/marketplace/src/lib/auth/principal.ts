import type { AppRecord } from '../apps/app.types';
import type { StoredUser } from './stored-user';

/** Who is calling, within one app. */
export type Principal =
  | {
      readonly kind: 'master';
      readonly app: AppRecord;
      /** The Flex service calling back with the secret it was handed. */
      readonly flexService?: string;
    }
  | {
      readonly kind: 'app';
      readonly app: AppRecord;
      readonly flexService?: string;
    }
  | {
      readonly kind: 'user';
      readonly app: AppRecord;
      readonly user: StoredUser;
      /** Digest of the session token used, when it was one. */
      readonly tokenDigest?: string;
    };

/** The shape of every app key, and so of the creator of app and master writes. */
const APP_KEY_PREFIX = 'kid_';

/**
 * The `_acl.creator` of what this principal writes: the user, or the app
 * key for app and master writes, as Kinvey shows them. No user `_id` can
 * equal an app key (`isReservedUserId`), so no user is ever the creator of
 * what the app wrote.
 */
export function creatorOf(principal: Principal): string {
  return principal.kind === 'user' ? principal.user.id : principal.app.appKey;
}

/**
 * Ids no user may have: this app's key and anything shaped like an app key
 * (Kinvey's `kid_...`), which imported records may name as their creator.
 */
export function isReservedUserId(id: string, appKey: string): boolean {
  return id === appKey || id.startsWith(APP_KEY_PREFIX);
}
