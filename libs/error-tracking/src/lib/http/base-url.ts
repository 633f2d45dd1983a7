import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';

import { Inject, Injectable } from '@nestjs/common';

import { ERROR_TRACKING_OPTIONS } from '../common/error-tracking.constants';

/** The options `baseUrlOf` reads. */
interface BaseUrlOptions {
  readonly publicBaseUrl?: string;
  readonly trustProxy: boolean;
}

function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value?.split(',')[0]?.trim() || undefined;
}

/**
 * The absolute base URL handed-out links start with: `PUBLIC_BASE_URL`, or
 * the request's scheme and host (`X-Forwarded-Proto`/`-Host` only when the
 * gateway trusts its proxy).
 */
export function baseUrlOf(
  req: IncomingMessage,
  options: BaseUrlOptions,
): string {
  if (options.publicBaseUrl) return options.publicBaseUrl.replace(/\/+$/, '');
  const encrypted = Boolean((req.socket as TLSSocket | undefined)?.encrypted);
  let scheme = encrypted ? 'https' : 'http';
  let host = firstValue(req.headers.host) ?? 'localhost';
  if (options.trustProxy) {
    const proto = firstValue(req.headers['x-forwarded-proto']);
    if (proto === 'http' || proto === 'https') scheme = proto;
    host = firstValue(req.headers['x-forwarded-host']) ?? host;
  }
  // Default ports are left out, as GitLab writes DSNs.
  const url = new URL(`${scheme}://${host}`);
  return url.origin;
}

/** `baseUrlOf` with the context's options, so controllers need not hold them. */
@Injectable()
export class BaseUrl {
  constructor(
    @Inject(ERROR_TRACKING_OPTIONS) private readonly options: BaseUrlOptions,
  ) {}

  of(req: IncomingMessage): string {
    return baseUrlOf(req, this.options);
  }
}

/** `{scheme}://{public_key}@{host[:port]}{base path}/api/v4/error_tracking/collector/{id}`. */
export function dsnOf(
  baseUrl: string,
  publicKey: string,
  projectId: number,
): string {
  const url = new URL(baseUrl);
  const basePath = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${publicKey}@${url.host}${basePath}/api/v4/error_tracking/collector/${projectId}`;
}
