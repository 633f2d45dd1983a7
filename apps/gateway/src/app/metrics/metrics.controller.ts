import { Controller, Get, Header, Inject } from '@nestjs/common';
import {
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import { ApiPublic } from '@quitanda/http';
import { METRICS_REGISTRY } from '@quitanda/kernel';
import type { Registry } from 'prom-client';

@ApiTags('operations')
@ApiPublic()
@Controller('metrics')
export class MetricsController {
  constructor(@Inject(METRICS_REGISTRY) private readonly registry: Registry) {}

  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  @ApiOperation({ summary: 'Prometheus metrics' })
  @ApiProduces('text/plain')
  @ApiOkResponse({
    description: 'Prometheus text exposition format.',
    schema: { type: 'string' },
  })
  metrics(): Promise<string> {
    return this.registry.metrics();
  }
}
