import { Controller, Get, HttpStatus, Inject, Res } from '@nestjs/common';
import {
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { ApiPublic } from '@quitanda/http';
import type { Response } from 'express';

import { ReadinessService } from './readiness.service';
import type { ReadinessReport } from './readiness.service';

const READINESS = {
  type: 'object' as const,
  properties: {
    status: { type: 'string' as const, enum: ['ok', 'unavailable'] },
    contexts: {
      type: 'object' as const,
      additionalProperties: {
        type: 'object' as const,
        properties: {
          database: { type: 'string' as const },
          migrations: { type: 'string' as const },
          pending: {
            type: 'array' as const,
            items: { type: 'string' as const },
          },
          error: { type: 'string' as const },
        },
      },
    },
    failed: { type: 'array' as const, items: { type: 'string' as const } },
    spool: {
      type: 'object' as const,
      description:
        "The collector's spool: what it acknowledged while the database did not answer, not yet drained into it (always empty with the embedded database).",
      properties: {
        events: { type: 'integer' as const },
        bytes: { type: 'integer' as const },
        oldest_age_seconds: { type: 'integer' as const },
      },
    },
  },
};

@ApiTags('operations')
@ApiPublic()
@Controller('health')
export class HealthController {
  constructor(
    @Inject(ReadinessService) private readonly readiness: ReadinessService,
  ) {}

  @Get('live')
  @ApiOperation({ summary: 'The process is up' })
  @ApiOkResponse({
    schema: {
      type: 'object',
      properties: { status: { type: 'string', enum: ['ok'] } },
      example: { status: 'ok' },
    },
  })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({
    summary: 'Every served context reaches its database and is migrated',
  })
  @ApiOkResponse({
    schema: {
      ...READINESS,
      example: {
        status: 'ok',
        contexts: { events: { database: 'up', migrations: 'applied' } },
      },
    },
  })
  @ApiServiceUnavailableResponse({
    description: 'Names what failed.',
    schema: READINESS,
  })
  async ready(
    @Res({ passthrough: true }) res: Response,
  ): Promise<ReadinessReport> {
    const report = await this.readiness.check();
    if (report.status !== 'ok') res.status(HttpStatus.SERVICE_UNAVAILABLE);
    return report;
  }
}
