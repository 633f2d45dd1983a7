import type { Request } from 'express';

import type { MarketplaceModuleOptions } from '../marketplace.options';

/**
 * Where handed-out file URLs point: `PUBLIC_BASE_URL`, else this request's
 * origin (Express honours `X-Forwarded-*` only under `TRUST_PROXY`).
 */
export function publicBaseUrl(
  req: Request,
  options: Pick<MarketplaceModuleOptions, 'publicBaseUrl'>,
): string {
  if (options.publicBaseUrl) return options.publicBaseUrl;
  return `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}
