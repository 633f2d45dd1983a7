import { Inject, Injectable, Logger } from '@nestjs/common';
import type {
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { CLOCK, inBackground } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { MARKETPLACE_OPTIONS } from '../common/marketplace.constants';
import type { MarketplaceModuleOptions } from '../common/marketplace.options';
import { CredentialsRepository } from './credentials.repository';

const PURGE_INTERVAL_MS = 10 * 60_000;

/**
 * Forgets login attempts older than the lock (their count would restart
 * and any lock is over), every ten minutes on each replica: names sprayed
 * at the login leave no lasting rows. A success forgets its own at once.
 */
@Injectable()
export class LoginAttemptsPurgeService
  implements OnApplicationBootstrap, OnApplicationShutdown
{
  private readonly logger = new Logger('MarketplaceLoginAttempts');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly credentials: CredentialsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(MARKETPLACE_OPTIONS)
    private readonly options: MarketplaceModuleOptions,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(
      () =>
        inBackground(this.purgeScheduled(), (error) =>
          this.logger.error({ err: error }, 'Purging login attempts failed'),
        ),
      PURGE_INTERVAL_MS,
    );
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** Deletes the attempts past the lock window; how many went. */
  purge(): Promise<number> {
    const now = this.clock.now().getTime();
    return this.credentials.purgeAttempts(
      new Date(now - this.options.loginLockSeconds * 1000),
    );
  }

  private async purgeScheduled(): Promise<void> {
    try {
      await this.purge();
    } catch (error) {
      this.logger.error(
        { err: error },
        'Purging old login attempts failed; the next run will retry',
      );
    }
  }
}
