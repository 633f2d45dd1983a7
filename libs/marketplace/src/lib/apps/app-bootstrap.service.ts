import { Inject, Injectable } from '@nestjs/common';
import { hashToken } from '@quitanda/kernel';

import { MARKETPLACE_OPTIONS } from '../common/marketplace.constants';
import type { MarketplaceModuleOptions } from '../common/marketplace.options';
import { MarketplaceDatabase } from '../persistence/marketplace-database';
import { AppsRepository } from './apps.repository';
import { AppsService } from './apps.service';

const DEMO_APP_NAME = 'Quitanda';
/** What these apps host: the product's own app, the produce marketplace. */
const DEFINITION = 'produce';

/**
 * First-boot work: the configured app (MARKETPLACE_APP_*) exists with those
 * secrets; on an empty database without one, a demo app is generated and
 * its credentials returned for DATA_DIR/initial-credentials.json.
 */
@Injectable()
export class AppBootstrapService {
  constructor(
    private readonly apps: AppsService,
    private readonly repository: AppsRepository,
    private readonly db: MarketplaceDatabase,
    @Inject(MARKETPLACE_OPTIONS)
    private readonly options: MarketplaceModuleOptions,
  ) {}

  run(): Promise<Record<string, string> | undefined> {
    const configured = this.options.app;
    return this.db.transaction(async (tx) => {
      await this.repository.lockBootstrap(tx);
      if (configured) {
        const existing = await this.repository.find(configured.appKey, tx);
        if (existing) {
          await this.repository.updateSecrets(
            configured.appKey,
            hashToken(configured.appSecret),
            hashToken(configured.masterSecret),
            configured.name,
            tx,
          );
        } else {
          await this.apps.create(
            {
              ...configured,
              name: configured.name ?? DEMO_APP_NAME,
              definition: DEFINITION,
            },
            tx,
          );
        }
        return undefined;
      }
      if ((await this.repository.count(tx)) > 0) return undefined;
      const created = await this.apps.create(
        { name: DEMO_APP_NAME, definition: DEFINITION },
        tx,
      );
      return {
        app_key: created.appKey,
        app_secret: created.appSecret,
        master_secret: created.masterSecret,
      };
    });
  }
}
