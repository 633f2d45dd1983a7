import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, hashPassword, hashToken, randomToken } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { ERROR_TRACKING_OPTIONS } from '../common/error-tracking.constants';
import type { ErrorTrackingModuleOptions } from '../common/error-tracking.options';
import { ErrorTrackingDatabase } from '../persistence/error-tracking.database';
import { AccountsRepository } from './accounts.repository';
import { newAccessToken } from './accounts.service';
import {
  ROOT_PASSWORD_CREDENTIALS,
  ROOT_USERNAME,
} from './initial-credentials-retirement';

export { ROOT_USERNAME };
export const INITIAL_ROOT_TOKEN_NAME = 'INITIAL_ROOT_TOKEN';

/**
 * First-boot work of the context: the admin user `root` exists, with
 * `INITIAL_ROOT_TOKEN` as an `api` token when that is configured; on an
 * empty database without it, root gets a generated token. Returns what was
 * generated (root's password for the web UI, the token), for the gateway
 * to record in DATA_DIR/initial-credentials.json.
 */
@Injectable()
export class RootBootstrapService {
  constructor(
    private readonly db: ErrorTrackingDatabase,
    private readonly accounts: AccountsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ERROR_TRACKING_OPTIONS)
    private readonly options: ErrorTrackingModuleOptions,
  ) {}

  /**
   * The recorded first-boot credentials that no longer sign in: root's
   * generated password once one was chosen for root (at the first sign-in,
   * or by `users:set-password`), or once root is gone.
   */
  async retired(): Promise<string[]> {
    const root = await this.accounts.findUserByUsername(ROOT_USERNAME);
    // Only a generated password expires; choosing one clears the date.
    return root?.passwordExpiresAt ? [] : [...ROOT_PASSWORD_CREDENTIALS];
  }

  async run(): Promise<Record<string, string> | undefined> {
    const configured = this.options.initialRootToken;
    // Slow hashing happens before the transaction, never inside it.
    const password = randomToken(18);
    const passwordHash = await hashPassword(password);
    const generatedToken = configured ? undefined : newAccessToken();
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      await this.accounts.lockRootBootstrap(tx);
      const generated: Record<string, string> = {};
      let root = await this.accounts.findUserByUsername(ROOT_USERNAME, tx);
      if (!root) {
        if (!configured && (await this.accounts.countUsers(tx)) > 0)
          return undefined;
        root = await this.accounts.insertUser(
          {
            username: ROOT_USERNAME,
            name: 'Administrator',
            email: 'root@localhost',
            isAdmin: true,
            passwordHash,
            // Generated and written to a file: the web UI asks for a new
            // one at the first sign-in, as GitLab does.
            passwordExpiresAt: now,
            createdAt: now,
          },
          tx,
        );
        generated['root_username'] = ROOT_USERNAME;
        generated['root_password'] = password;
        if (generatedToken) {
          await this.accounts.insertToken(
            {
              userId: root.id,
              name: 'initial root token',
              digest: hashToken(generatedToken),
              scopes: ['api'],
              expiresAt: null,
              createdAt: now,
            },
            tx,
          );
          generated['root_token'] = generatedToken;
        }
      }
      if (configured) {
        const digest = hashToken(configured);
        // A changed INITIAL_ROOT_TOKEN replaces the previous one.
        await this.accounts.revokeOtherTokensNamed(
          root.id,
          INITIAL_ROOT_TOKEN_NAME,
          digest,
          tx,
        );
        await this.accounts.insertToken(
          {
            userId: root.id,
            name: INITIAL_ROOT_TOKEN_NAME,
            digest,
            scopes: ['api'],
            expiresAt: null,
            createdAt: now,
          },
          tx,
        );
      }
      return Object.keys(generated).length > 0 ? generated : undefined;
    });
  }
}
