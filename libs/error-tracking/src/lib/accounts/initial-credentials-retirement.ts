import { Inject, Injectable, Logger } from '@nestjs/common';

import { ERROR_TRACKING_OPTIONS } from '../common/error-tracking.constants';
import type { ErrorTrackingModuleOptions } from '../common/error-tracking.options';
import type { UserRecord } from './account.types';

export const ROOT_USERNAME = 'root';

/** The names root's generated password is recorded under at first boot. */
export const ROOT_PASSWORD_CREDENTIALS: readonly string[] = [
  'root_username',
  'root_password',
];

/**
 * Tells the gateway when root's generated password stops working, so that
 * its record of first-boot credentials drops it at once (each start checks
 * again, for a change made where this hook did not run).
 */
@Injectable()
export class InitialCredentialsRetirement {
  private readonly logger = new Logger('ErrorTrackingAccounts');

  constructor(
    @Inject(ERROR_TRACKING_OPTIONS)
    private readonly options: ErrorTrackingModuleOptions,
  ) {}

  /**
   * After `user`'s password was replaced (`user` as it was before). A
   * failure is logged, not thrown: the new password is set either way.
   */
  async passwordReplaced(user: UserRecord): Promise<void> {
    // Only a generated password expires.
    if (user.username !== ROOT_USERNAME || !user.passwordExpiresAt) return;
    try {
      await this.options.retireInitialCredentials?.(ROOT_PASSWORD_CREDENTIALS);
    } catch (error) {
      this.logger.error(
        `Root's generated password is still recorded as a first-boot credential: ${(error as Error).message}`,
      );
    }
  }
}
