import { Injectable } from '@nestjs/common';

import { SessionCache } from '../auth/session-cache';
import { FilesRepository } from '../files/files.repository';
import { MarketplaceDatabase } from '../persistence/marketplace-database';
import { UsersRepository } from '../users/users.repository';

/** Kinvey's names of the collections every app has: its users and files. */
export const SYSTEM_COLLECTIONS = ['user', '_blob'] as const;
export type SystemCollection = (typeof SYSTEM_COLLECTIONS)[number];

export function isSystemCollection(name: string): name is SystemCollection {
  return (SYSTEM_COLLECTIONS as readonly string[]).includes(name);
}

/**
 * Kinvey's `remove-collection` of a system collection empties it, as
 * Kinvey's SDK test suites expect before they start: `user` loses every
 * user and session (the app's key and secrets are no users and stay),
 * `_blob` every file and its bytes.
 */
@Injectable()
export class SystemCollectionsService {
  constructor(
    private readonly users: UsersRepository,
    private readonly files: FilesRepository,
    private readonly db: MarketplaceDatabase,
    private readonly sessions: SessionCache,
  ) {}

  /** How many users or files were deleted. */
  async empty(appKey: string, name: SystemCollection): Promise<number> {
    if (name === '_blob') return this.files.removeAll(appKey);
    const count = await this.db.transaction((tx) =>
      this.users.removeAll(appKey, tx),
    );
    this.sessions.forgetApp(appKey);
    return count;
  }
}
