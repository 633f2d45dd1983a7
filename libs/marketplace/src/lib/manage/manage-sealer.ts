import { SecretSealer } from '@quitanda/kernel';

import { MarketplaceError } from '../common/marketplace.errors';
import type { MarketplaceModuleOptions } from '../common/marketplace.options';

/**
 * Seals the secrets the management API must show again (environments',
 * services') under MARKETPLACE_MANAGE_ENCRYPTION_KEY, one purpose each.
 */
export class ManageSealer {
  private readonly sealer?: SecretSealer;

  constructor(options: MarketplaceModuleOptions, purpose: string) {
    if (options.manageEncryptionKey)
      this.sealer = new SecretSealer(options.manageEncryptionKey, purpose);
  }

  seal(plain: string): string {
    return this.required().seal(plain);
  }

  open(sealed: string): string {
    const sealer = this.required();
    try {
      return sealer.open(sealed);
    } catch {
      throw MarketplaceError.featureUnavailable(
        'MARKETPLACE_MANAGE_ENCRYPTION_KEY is not the key these secrets were sealed with',
        'These secrets cannot be read on this backend.',
      );
    }
  }

  /** Refuses early, before anything is written, when there is no key. */
  required(): SecretSealer {
    if (!this.sealer)
      throw MarketplaceError.featureUnavailable(
        'MARKETPLACE_MANAGE_ENCRYPTION_KEY is not set',
        'The management API needs MARKETPLACE_MANAGE_ENCRYPTION_KEY on this backend.',
      );
    return this.sealer;
  }
}
