import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import {
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { ApiPublic, endWithBody, requestIdOf } from '@quitanda/http';
import { METRICS_REGISTRY, SecretMatcher } from '@quitanda/kernel';
import type { Request, Response } from 'express';
import type { Registry } from 'prom-client';

import { GATEWAY_CONFIG } from '../config/gateway-config';
import type { GatewayConfig } from '../config/gateway-config';

const BEARER = /^Bearer (\S+)$/i;

/**
 * Prometheus metrics. Open unless `METRICS_TOKEN` is set: then only
 * `Authorization: Bearer <token>` reads them (route names, volumes and pool
 * use tell an outsider more than they should).
 */
@ApiTags('operations')
@ApiPublic()
@Controller('metrics')
export class MetricsController {
  private readonly token?: SecretMatcher;

  constructor(
    @Inject(METRICS_REGISTRY) private readonly registry: Registry,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    if (config.metricsToken)
      this.token = new SecretMatcher(config.metricsToken);
  }

  @Get()
  @ApiOperation({
    summary: 'Prometheus metrics',
    description:
      'With METRICS_TOKEN set, send `Authorization: Bearer <METRICS_TOKEN>`.',
  })
  @ApiProduces('text/plain')
  @ApiOkResponse({
    description: 'Prometheus text exposition format.',
    schema: { type: 'string' },
  })
  @ApiUnauthorizedResponse({
    description: 'METRICS_TOKEN is set and the request does not carry it.',
    headers: { 'WWW-Authenticate': { schema: { type: 'string' } } },
    schema: {
      type: 'object',
      properties: {
        statusCode: { type: 'integer', enum: [401] },
        error: { type: 'string', enum: ['unauthorized'] },
        message: { type: 'string' },
        request_id: { type: 'string' },
      },
    },
  })
  async metrics(@Req() req: Request, @Res() res: Response): Promise<void> {
    if (this.token && !this.allows(req.headers.authorization)) {
      res.status(401);
      res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      endWithBody(
        res,
        JSON.stringify({
          statusCode: 401,
          error: 'unauthorized',
          message: 'Send Authorization: Bearer <METRICS_TOKEN>.',
          request_id: requestIdOf(req),
        }),
      );
      return;
    }
    res.setHeader('Content-Type', 'text/plain; version=0.0.4; charset=utf-8');
    endWithBody(res, await this.registry.metrics());
  }

  private allows(authorization: string | undefined): boolean {
    const token = authorization && BEARER.exec(authorization)?.[1];
    return token ? (this.token?.matches(token) ?? false) : false;
  }
}
