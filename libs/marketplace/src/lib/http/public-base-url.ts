import type { Request } from 'express';

import type { MarketplaceModuleOptions } from '../common/marketplace.options';

/**
 * Where handed-out file URLs point: `FILES_PUBLIC_BASE_URL`, else
 * `PUBLIC_BASE_URL`, else this request's origin (Express honours
 * `X-Forwarded-*` only under `TRUST_PROXY`).
 */
export function publicBaseUrl(
  req: Request,
  options: Pick<
    MarketplaceModuleOptions,
    'publicBaseUrl' | 'filesPublicBaseUrl'
  >,
): string {
  if (options.filesPublicBaseUrl) return options.filesPublicBaseUrl;
  if (options.publicBaseUrl) return options.publicBaseUrl;
  return `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}

/**
 * Where a file read's download URLs point: as `publicBaseUrl`, but `http`
 * when the read says `tls=false`, as Kinvey answers it (its SDKs send
 * `tls=true` unless an app asks otherwise).
 */
export function fileReadBaseUrl(
  req: Request,
  options: Pick<
    MarketplaceModuleOptions,
    'publicBaseUrl' | 'filesPublicBaseUrl'
  >,
  tls: unknown,
): string {
  const base = publicBaseUrl(req, options);
  return tls === 'false' ? base.replace(/^https:/i, 'http:') : base;
}
