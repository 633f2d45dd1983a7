import {
  Controller,
  HttpCode,
  applyDecorators,
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
  ApiSecurity,
  ApiTags,
} from '@nestjs/swagger';
import {
  ApiErrorResponses,
  ApiPublic,
  RETRY_AFTER_HEADER,
  endWithBody,
} from '@quitanda/http';
import type { Request, Response } from 'express';

import { COLLECTOR_PATH_PREFIX } from '../common/error-tracking.constants';
import {
  COLLECTOR_CORS_HEADERS,
  COLLECTOR_PREFLIGHT_HEADERS,
} from '../http/cors';
import { SentryErrorDto } from '../http/openapi';
import { IngestionService } from './ingestion.service';
import type { CollectorEndpoint } from './ingestion.service';

const RATE_LIMIT_HEADERS = {
  ...RETRY_AFTER_HEADER,
  'X-Sentry-Rate-Limits': {
    description:
      "`<seconds>:<categories>:key`: the client key's limit and the Sentry data categories past it (`error`, `session`, `internal`, ...), as Sentry sends it.",
    schema: { type: 'string' as const },
  },
};

/** What both ingestion endpoints answer; errors in Sentry's `{"detail"}`. */
function documented(): MethodDecorator {
  return applyDecorators(
    ApiSecurity('sentry-auth'),
    ApiSecurity('sentry_key'),
    ApiOkResponse({
      description:
        'Durably stored (in the database, or in the spool while it does not answer): `{"id": "<event id>"}`, or `{}` without an event.',
      schema: {
        type: 'object',
        properties: {
          id: { type: 'string', example: 'fc6d8c0c43fc4630ad850ee518f1b9d0' },
        },
      },
    }),
    ApiErrorResponses(SentryErrorDto, {
      400: {
        description: 'Malformed envelope or event, conflicting keys.',
      },
      401: { description: 'No public key anywhere.' },
      403: {
        description:
          'Unknown or deleted key, another project, tracking disabled.',
      },
      413: {
        description: 'Body, envelope (bytes or items) or event over its limit.',
      },
      415: { description: 'Unsupported Content-Encoding.' },
      429: {
        description: "Over the client key's event rate.",
        headers: RATE_LIMIT_HEADERS,
      },
      503: {
        description:
          'The database does not answer and the request cannot be spooled (a key this gateway has not seen, a full spool, the embedded database): nothing stored.',
        headers: RETRY_AFTER_HEADER,
      },
    }),
  );
}

const PREFLIGHT = [
  HttpCode(200),
  ApiPublic(),
  ApiOperation({ summary: 'CORS preflight for browser SDKs' }),
  ApiOkResponse({
    description: 'Allowed methods and headers, any origin.',
    headers: {
      'Access-Control-Allow-Origin': { schema: { type: 'string' } },
      'Access-Control-Allow-Methods': { schema: { type: 'string' } },
      'Access-Control-Allow-Headers': { schema: { type: 'string' } },
    },
  }),
] as const;

/**
 * Sentry's ingestion endpoints under the DSN path prefix, with or without
 * trailing slash. Bodies are read raw here (any Content-Type, chunked,
 * compressed): no body parser runs on these routes.
 */
@ApiTags('error tracking: collector (Sentry protocol)')
@ApiParam({
  name: 'projectId',
  description: 'Numeric project id (last segment of the DSN).',
})
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

  @Options(['envelope', 'envelope/'])
  @applyDecorators(...PREFLIGHT)
  preflightEnvelope(@Res() res: Response): void {
    res.status(200).set(COLLECTOR_PREFLIGHT_HEADERS).end();
  }

  @Options(['store', 'store/'])
  @applyDecorators(...PREFLIGHT)
  preflightStore(@Res() res: Response): void {
    this.preflightEnvelope(res);
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
