import {
  Controller,
  HttpCode,
  Options,
  Param,
  Post,
  Req,
  Res,
} from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { endWithBody } from '@quitanda/http';
import type { Request, Response } from 'express';

import { COLLECTOR_PATH_PREFIX } from '../error-tracking.constants';
import {
  COLLECTOR_CORS_HEADERS,
  COLLECTOR_PREFLIGHT_HEADERS,
} from '../http/cors';
import { IngestionService } from './ingestion.service';
import type { CollectorEndpoint } from './ingestion.service';

const RESPONSES = [
  ApiOkResponse({
    description:
      'Durably stored: `{"id": "<event id>"}`, or `{}` without an event.',
    schema: {
      type: 'object',
      properties: {
        id: { type: 'string', example: 'fc6d8c0c43fc4630ad850ee518f1b9d0' },
      },
    },
  }),
  ApiResponse({
    status: 400,
    description:
      'Malformed envelope or event, conflicting keys (`{"detail"}`).',
  }),
  ApiResponse({ status: 401, description: 'No public key anywhere.' }),
  ApiResponse({
    status: 403,
    description: 'Unknown or deleted key, another project, tracking disabled.',
  }),
  ApiResponse({
    status: 413,
    description: 'Body, envelope or event over its limit.',
  }),
  ApiResponse({ status: 415, description: 'Unsupported Content-Encoding.' }),
  ApiResponse({
    status: 429,
    description:
      'Rate limited: `Retry-After`, `X-Sentry-Rate-Limits: <s>::key`.',
  }),
  ApiResponse({
    status: 503,
    description: 'Database unavailable: nothing stored; `Retry-After`.',
  }),
];

function documented(): MethodDecorator {
  return (target, key, descriptor) => {
    for (const decorate of [
      ApiParam({
        name: 'projectId',
        description: 'Numeric project id (last segment of the DSN).',
      }),
      ApiQuery({
        name: 'sentry_key',
        required: false,
        description:
          'Public key (browser SDKs); or X-Sentry-Auth, Authorization: Sentry, envelope dsn.',
      }),
      ...RESPONSES,
    ])
      decorate(target, key, descriptor);
  };
}

/**
 * Sentry's ingestion endpoints under the DSN path prefix, with or without
 * trailing slash. Bodies are read raw here (any Content-Type, chunked,
 * compressed): no body parser runs on these routes.
 */
@ApiTags('error tracking: collector (Sentry protocol)')
@Controller(`${COLLECTOR_PATH_PREFIX.slice(1)}/api/:projectId`)
export class CollectorController {
  constructor(private readonly ingestion: IngestionService) {}

  @Post(['envelope', 'envelope/'])
  @ApiOperation({
    summary:
      'Ingest an envelope (events, sessions, client reports; other items skipped)',
  })
  @ApiConsumes(
    'application/x-sentry-envelope',
    'text/plain',
    'application/json',
  )
  @ApiBody({ schema: { type: 'string', format: 'binary' } })
  @documented()
  async envelope(
    @Param('projectId') projectId: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await this.handle('envelope', projectId, req, res);
  }

  @Post(['store', 'store/'])
  @ApiOperation({ summary: 'Ingest one event (the legacy store endpoint)' })
  @ApiConsumes('application/json')
  @ApiBody({ schema: { type: 'object' } })
  @documented()
  async store(
    @Param('projectId') projectId: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await this.handle('store', projectId, req, res);
  }

  @Options(['envelope', 'envelope/', 'store', 'store/'])
  @HttpCode(200)
  @ApiOperation({ summary: 'CORS preflight for browser SDKs' })
  preflight(@Res() res: Response): void {
    res.status(200).set(COLLECTOR_PREFLIGHT_HEADERS).end();
  }

  private async handle(
    endpoint: CollectorEndpoint,
    projectId: string,
    req: Request,
    res: Response,
  ): Promise<void> {
    const result = await this.ingestion.ingest({
      endpoint,
      projectId,
      query: req.query as Record<string, unknown>,
      headers: req.headers,
      body: req,
      clientIp: req.ip,
    });
    // Past the gateway's deadline a 503 went out already: no late success.
    if (res.headersSent) return;
    // Written directly: Express's res.json() costs more than this whole reply.
    const body = JSON.stringify(result);
    res.statusCode = 200;
    for (const [name, value] of Object.entries(COLLECTOR_CORS_HEADERS))
      res.setHeader(name, value);
    res.setHeader('Content-Type', 'application/json');
    endWithBody(res, body);
  }
}
