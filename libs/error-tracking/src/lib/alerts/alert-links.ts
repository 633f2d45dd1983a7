import { Inject, Injectable, Optional } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';

import { ERROR_TRACKING_OPTIONS } from '../common/error-tracking.constants';
import type { ErrorTrackingModuleOptions } from '../common/error-tracking.options';

/**
 * Absolute links in alerts, which have no request to take a host from:
 * PUBLIC_BASE_URL, else this process's own listening address.
 */
@Injectable()
export class AlertLinks {
  constructor(
    @Inject(ERROR_TRACKING_OPTIONS)
    private readonly options: ErrorTrackingModuleOptions,
    @Optional() private readonly adapterHost?: HttpAdapterHost,
  ) {}

  base(): string {
    if (this.options.publicBaseUrl)
      return this.options.publicBaseUrl.replace(/\/+$/, '');
    const server = this.adapterHost?.httpAdapter?.getHttpServer() as
      { address?: () => unknown } | undefined;
    const address = server?.address?.() as
      { address: string; port: number; family: string } | undefined;
    if (!address || typeof address !== 'object') return 'http://localhost';
    const host = ['0.0.0.0', '::'].includes(address.address)
      ? 'localhost'
      : address.address.includes(':')
        ? `[${address.address}]`
        : address.address;
    return `http://${host}:${address.port}`;
  }

  /** The gateway's own `host[:port]` as configured (hooks may not target it). */
  ownHost(): string | undefined {
    return this.options.publicBaseUrl
      ? new URL(this.options.publicBaseUrl).host.toLowerCase()
      : undefined;
  }

  errorUrl(projectId: number, errorId: string): string {
    return `${this.base()}/projects/${projectId}/error_tracking/${errorId}`;
  }

  projectUrl(projectId: number): string {
    return `${this.base()}/projects/${projectId}`;
  }

  settingsUrl(projectId: number): string {
    return `${this.base()}/projects/${projectId}/settings/monitor`;
  }
}
