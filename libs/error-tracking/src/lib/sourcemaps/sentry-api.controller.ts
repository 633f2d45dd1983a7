import { Get, Param, Post, Put, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
} from '@nestjs/swagger';
import { endWithBody } from '@quitanda/http';
import type { Request, Response } from 'express';

import type { Caller } from '../accounts/account.types';
import { CurrentCaller } from '../accounts/token-auth.guard';
import { SENTRY_API_PREFIX } from '../common/error-tracking.constants';
import { BaseUrl } from '../http/base-url';
import { readChunks } from './chunk-upload';
import { SentryApiService } from './sentry-api.service';
import { SentryWebApi } from './sentry-web-api.decorator';
import { paths, readJson, send } from './sentry-web-api.http';

const object = (
  properties: Record<string, object>,
  description?: string,
): { schema: object; description?: string } => ({
  schema: { type: 'object', properties },
  ...(description ? { description } : {}),
});
const text = { type: 'string' };

const RELEASE = object(
  {
    version: text,
    projects: {
      type: 'array',
      items: object({ id: text, slug: text, name: text }).schema,
    },
    dateCreated: { type: 'string', format: 'date-time' },
    dateReleased: { type: 'string', format: 'date-time', nullable: true },
  },
  "The release, in Sentry's shape.",
);

/**
 * The part of Sentry's web API (`/api/0/`) that sentry-cli calls to upload
 * source maps and record releases, authenticated by personal access tokens
 * (`Authorization: Bearer`). Bodies are read here: JSON, or the multipart
 * chunks, so no body parser runs on these routes.
 */
@SentryWebApi()
export class SentryApiController {
  constructor(
    private readonly service: SentryApiService,
    private readonly baseUrl: BaseUrl,
  ) {}

  @Get(paths('organizations/:org'))
  @ApiOperation({ summary: 'The organisation (any slug: there are none here)' })
  @ApiOkResponse(object({ id: text, slug: text, name: text }))
  async organization(
    @CurrentCaller() caller: Caller,
    @Param('org') org: string,
    @Res() res: Response,
  ): Promise<void> {
    await this.service.requireUploader(caller);
    send(res, 200, { id: '1', slug: org, name: org });
  }

  @Get(paths('projects/:org/:project'))
  @ApiOperation({ summary: 'A project the token can maintain (id or path)' })
  @ApiOkResponse(object({ id: text, slug: text, name: text }))
  async project(
    @CurrentCaller() caller: Caller,
    @Param('project') idOrPath: string,
    @Res() res: Response,
  ): Promise<void> {
    const [project] = await this.service.maintainedProjects(caller, [idOrPath]);
    send(res, 200, {
      id: String(project?.id),
      slug: project?.path,
      name: project?.name,
    });
  }

  @Get(paths('organizations/:org/chunk-upload'))
  @ApiOperation({
    summary: 'Chunk upload options (where and how to send chunks)',
  })
  @ApiOkResponse(
    object(
      {
        url: text,
        chunkSize: { type: 'integer' },
        chunksPerRequest: { type: 'integer' },
        maxRequestSize: { type: 'integer' },
        maxFileSize: { type: 'integer' },
        concurrency: { type: 'integer' },
        hashAlgorithm: text,
        compression: { type: 'array', items: text },
        accept: { type: 'array', items: text },
      },
      "Where and how to send chunks, in sentry-cli's terms.",
    ),
  )
  async chunkUploadOptions(
    @CurrentCaller() caller: Caller,
    @Param('org') org: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const url = `${this.baseUrl.of(req)}${SENTRY_API_PREFIX}/organizations/${encodeURIComponent(org)}/chunk-upload/`;
    send(res, 200, await this.service.chunkUploadOptions(caller, url));
  }

  @Post(paths('organizations/:org/chunk-upload'))
  @ApiOperation({
    summary:
      'Upload chunks (multipart `file_gzip`/`file` parts named by SHA-1)',
  })
  @ApiBody({ schema: { type: 'string', format: 'binary' } })
  @ApiOkResponse({
    description: 'The chunks are stored (an empty body, as Sentry answers).',
    content: {
      'application/json': { schema: { type: 'string', maxLength: 0 } },
    },
  })
  async uploadChunks(
    @CurrentCaller() caller: Caller,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await this.service.requireUploader(caller);
    const chunks = await readChunks(req, this.service.chunkLimits);
    await this.service.storeChunks(caller, chunks);
    res.statusCode = 200;
    endWithBody(res, '');
  }

  @Post(paths('organizations/:org/artifactbundle/assemble'))
  @ApiOperation({
    summary:
      'Assemble an artifact bundle from its chunks (or say which are missing)',
  })
  @ApiOkResponse(
    object(
      {
        state: {
          type: 'string',
          enum: ['not_found', 'created', 'ok', 'error'],
        },
        missingChunks: { type: 'array', items: text },
        detail: { type: 'string', nullable: true },
      },
      'How far the bundle is: the chunks still missing, or its state.',
    ),
  )
  async assemble(
    @CurrentCaller() caller: Caller,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    send(res, 200, await this.service.assemble(caller, await readJson(req)));
  }

  @Post(paths('organizations/:org/releases'))
  @ApiOperation({
    summary: '`releases new` (3.x): create a release in the projects it names',
  })
  @ApiCreatedResponse(RELEASE)
  async createRelease(
    @CurrentCaller() caller: Caller,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await this.createProjectRelease(caller, undefined, req, res);
  }

  @Post(paths('projects/:org/:project/releases'))
  @ApiOperation({
    summary:
      '`releases new` (2.x): create a release in the project of the path',
  })
  @ApiCreatedResponse(RELEASE)
  @ApiParam({ name: 'project', description: 'Project id or path.' })
  async createProjectRelease(
    @CurrentCaller() caller: Caller,
    @Param('project') project: string | undefined,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const body = await readJson(req);
    send(res, 201, await this.service.createRelease(caller, body, project));
  }

  @Put(paths('organizations/:org/releases/:version'))
  @ApiOperation({ summary: '`releases finalize` (3.x): update a release' })
  @ApiOkResponse(RELEASE)
  async updateRelease(
    @CurrentCaller() caller: Caller,
    @Param('version') version: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await this.updateProjectRelease(caller, undefined, version, req, res);
  }

  @Put(paths('projects/:org/:project/releases/:version'))
  @ApiOperation({ summary: '`releases finalize` (2.x): update a release' })
  @ApiOkResponse(RELEASE)
  @ApiParam({ name: 'project', description: 'Project id or path.' })
  async updateProjectRelease(
    @CurrentCaller() caller: Caller,
    @Param('project') project: string | undefined,
    @Param('version') version: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const body = await readJson(req);
    send(
      res,
      200,
      await this.service.updateRelease(caller, version, body, project),
    );
  }
}
