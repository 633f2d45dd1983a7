import {
  Body,
  Delete,
  Get,
  Inject,
  Param,
  Post,
  Put,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import { ApiBody, ApiQuery } from '@nestjs/swagger';
import type { Request, Response } from 'express';

import { Caller } from '../auth/kinvey-auth.guard';
import { KinveyController } from '../auth/kinvey-controller.decorator';
import type { Principal } from '../auth/principal';
import {
  KINVEY_COUNT,
  KINVEY_ENTITIES,
  KINVEY_ENTITY,
  ok,
  KinveyCall,
} from '../http/kinvey-api.decorators';
import { fileReadBaseUrl, publicBaseUrl } from '../http/public-base-url';
import type { KinveyDoc } from '../kinvey/kinvey-doc';
import type { FindParams } from '../kinvey/find-params';
import { MARKETPLACE_OPTIONS } from '../common/marketplace.constants';
import type { MarketplaceModuleOptions } from '../common/marketplace.options';
import { FileQueryService } from './file-query.service';
import { FilesService, ttlOf } from './files.service';

const FILE_BODY = {
  schema: {
    type: 'object',
    additionalProperties: true,
    properties: {
      _filename: { type: 'string' },
      mimeType: { type: 'string' },
      size: { type: 'integer' },
      _public: { type: 'boolean' },
    },
  },
};

const TLS_QUERY = {
  name: 'tls',
  required: false,
  description: '`false`: http download URLs (Kinvey SDKs send `true`)',
};

const UPLOAD_NOTE =
  'The reply carries `_uploadURL` (signed, expiring; PUT the bytes there without Authorization: ' +
  '`Content-Range: bytes */N` probes (308 with `Range` while incomplete, 200 when complete), ' +
  '`bytes a-b/N` uploads a chunk, no Content-Range uploads the whole body; 413 over the declared size or limit), ' +
  '`_requiredHeaders` and `_expiresAt`.';

@KinveyController('blob/:appKey', 'marketplace: files')
export class BlobController {
  constructor(
    private readonly files: FilesService,
    private readonly queries: FileQueryService,
    @Inject(MARKETPLACE_OPTIONS)
    private readonly options: MarketplaceModuleOptions,
  ) {}

  @Post()
  @KinveyCall(
    `Create file metadata. ${UPLOAD_NOTE}`,
    'user, master, or app (read-create)',
    ok(
      KINVEY_ENTITY,
      'The file metadata with its signed `_uploadURL` and `_requiredHeaders`.',
      201,
    ),
  )
  @ApiBody(FILE_BODY)
  create(
    @Caller() principal: Principal,
    @Body() body: unknown,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<KinveyDoc> {
    return this.save(principal, undefined, body, req, res);
  }

  @Put(':id')
  @KinveyCall(
    `Replace a file (its bytes are dropped). ${UPLOAD_NOTE}`,
    'creator or master',
    ok(
      KINVEY_ENTITY,
      'The file metadata with its signed `_uploadURL` and `_requiredHeaders`.',
      201,
    ),
  )
  @ApiBody(FILE_BODY)
  replace(
    @Caller() principal: Principal,
    @Param('id') id: string,
    @Body() body: unknown,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<KinveyDoc> {
    return this.save(principal, id, body, req, res);
  }

  private save(
    principal: Principal,
    id: string | undefined,
    body: unknown,
    req: Request,
    res: Response,
  ): Promise<KinveyDoc> {
    res.status(201);
    return this.files.createOrReplace(
      principal,
      id,
      body,
      req.get('x-kinvey-content-type'),
      publicBaseUrl(req, this.options),
    );
  }

  @Get()
  @KinveyCall(
    'Find files (?query=), each with a _downloadURL',
    'user, master, or app (read)',
    ok(KINVEY_ENTITIES, 'Files, each with a signed `_downloadURL`.'),
  )
  @ApiQuery({ name: 'query', required: false })
  @ApiQuery({ name: 'ttl_in_seconds', required: false, type: Number })
  @ApiQuery(TLS_QUERY)
  list(
    @Caller() principal: Principal,
    @Query() params: FindParams & { ttl_in_seconds?: unknown; tls?: unknown },
    @Req() req: Request,
  ): Promise<KinveyDoc[]> {
    const base = fileReadBaseUrl(req, this.options, params.tls);
    return this.queries.list(
      principal,
      params,
      base,
      ttlOf(params.ttl_in_seconds),
    );
  }

  @Get(':id')
  @KinveyCall(
    'A file with its signed _downloadURL (permanent for public files)',
    'user, master, or app (read)',
    ok(KINVEY_ENTITY, 'The file with its signed `_downloadURL`.'),
  )
  @ApiQuery({ name: 'ttl_in_seconds', required: false, type: Number })
  @ApiQuery(TLS_QUERY)
  get(
    @Caller() principal: Principal,
    @Param('id') id: string,
    @Query('ttl_in_seconds') ttl: string | undefined,
    @Query('tls') tls: unknown,
    @Req() req: Request,
  ): Promise<KinveyDoc> {
    return this.files.get(
      principal,
      id,
      ttlOf(ttl),
      fileReadBaseUrl(req, this.options, tls),
    );
  }

  @Delete(':id')
  @KinveyCall(
    'Delete a file and its bytes',
    'creator or master',
    ok(KINVEY_COUNT),
  )
  async remove(
    @Caller() principal: Principal,
    @Param('id') id: string,
  ): Promise<{ count: number }> {
    return { count: await this.files.remove(principal, id) };
  }
}
