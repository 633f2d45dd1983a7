import { MarketplaceError } from '../../lib/common/marketplace.errors';
import type { MarketplaceErrorCode } from '../../lib/common/marketplace.errors';

/** The code of the MarketplaceError `run` throws; anything else fails. */
export function errorCode(run: () => unknown): MarketplaceErrorCode {
  try {
    run();
  } catch (error) {
    if (error instanceof MarketplaceError) return error.code;
    throw error;
  }
  throw new Error('expected a MarketplaceError');
}
