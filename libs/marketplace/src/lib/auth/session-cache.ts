import type { Provider } from '@nestjs/common';
import { BoundedMap } from '@quitanda/kernel';

import { MARKETPLACE_OPTIONS } from '../common/marketplace.constants';
import type { MarketplaceModuleOptions } from '../common/marketplace.options';
import type { StoredUser } from './stored-user';

/** Keeps the cache's memory bounded whatever the number of live sessions. */
const MAX_SESSIONS = 10_000;

interface Entry {
  readonly appKey: string;
  readonly user: StoredUser;
  readonly tokenExpiresAt: number;
  readonly cachedAt: number;
}

/**
 * Who a session token belongs to, remembered for a few seconds so that a
 * user's calls do not each cost a database round trip (Parse Server keeps
 * sessions the same way, for 5 s). Logout, a password change, an update,
 * disabling or deleting a user (or all of an app's) forget those sessions
 * here at once; another replica may accept a revoked token until its own
 * entry is older than `ttlMs` (MARKETPLACE_SESSION_CACHE_SECONDS, 0 turns
 * this off).
 */
export class SessionCache {
  private readonly entries = new BoundedMap<string, Entry>(MAX_SESSIONS);

  constructor(private readonly ttlMs: number) {}

  get(appKey: string, digest: string, now: Date): StoredUser | undefined {
    const entry = this.entries.get(digest);
    if (!entry || entry.appKey !== appKey) return undefined;
    const at = now.getTime();
    if (at - entry.cachedAt >= this.ttlMs || at >= entry.tokenExpiresAt) {
      this.entries.delete(digest);
      return undefined;
    }
    return entry.user;
  }

  set(
    appKey: string,
    digest: string,
    user: StoredUser,
    tokenExpiresAt: Date,
    now: Date,
  ): void {
    if (this.ttlMs <= 0) return;
    this.entries.set(digest, {
      appKey,
      user,
      tokenExpiresAt: tokenExpiresAt.getTime(),
      cachedAt: now.getTime(),
    });
  }

  forgetToken(digest: string): void {
    this.entries.delete(digest);
  }

  forgetApp(appKey: string): void {
    for (const [digest, entry] of this.entries)
      if (entry.appKey === appKey) this.entries.delete(digest);
  }

  forgetUser(appKey: string, userId: string): void {
    for (const [digest, entry] of this.entries)
      if (entry.appKey === appKey && entry.user.id === userId)
        this.entries.delete(digest);
  }
}

export const SESSION_CACHE_PROVIDER: Provider = {
  provide: SessionCache,
  useFactory: (options: MarketplaceModuleOptions) =>
    new SessionCache(options.sessionCacheSeconds * 1000),
  inject: [MARKETPLACE_OPTIONS],
};
