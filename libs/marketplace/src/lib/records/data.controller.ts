import {
  Delete,
  Get,
  Inject,
  Param,
  Post,
  Put,
  Req,
  Res,
} from '@nestjs/common';
import { ApiBody, ApiQuery } from '@nestjs/swagger';
import { JsonText } from '@quitanda/http';
import type { Request, Response } from 'express';

import { Caller } from '../auth/kinvey-auth.guard';
import { KinveyController } from '../auth/kinvey-controller.decorator';
import type { Principal } from '../auth/principal';
import { FilesService, ttlOf } from '../files/files.service';
import {
  KINVEY_COUNT,
  KINVEY_ENTITIES,
  KINVEY_ENTITY,
  ok,
  KinveyCall,
} from '../http/kinvey-api.decorators';
import { apiVersionOf } from '../http/kinvey-http.middleware';
import { publicBaseUrl } from '../http/public-base-url';
import {
  MARKETPLACE_OPTIONS,
  SERVER_VERSION,
} from '../common/marketplace.constants';
import { MarketplaceError } from '../common/marketplace.errors';
import type { MarketplaceModuleOptions } from '../common/marketplace.options';
import type { FindParams } from '../kinvey/find-params';
import type { KinveyDoc } from '../kinvey/kinvey-doc';
import { DataCallLogic } from './data-call-logic';
import { RecordsService } from './records.service';

type ReadParams = FindParams & { kinveyfile_ttl?: unknown; since?: unknown };

const RECORD_BODY = {
  schema: { type: 'object', additionalProperties: true },
  description:
    'A record (or, with X-Kinvey-API-Version >= 5 on create, an array of records).',
};

@KinveyController('appdata/:appKey', 'marketplace: data')
export class DataController {
  constructor(
    private readonly records: RecordsService,
    private readonly files: FilesService,
    private readonly logic: DataCallLogic,
    @Inject(MARKETPLACE_OPTIONS)
    private readonly options: MarketplaceModuleOptions,
  ) {}

  /** The request's query as the call reads it (a pre-hook may replace it). */
  private static paramsOf(req: Request): ReadParams {
    return req.query as ReadParams;
  }

  /** Expands file references (one query for the whole response). */
  private expand(
    principal: Principal,
    req: Request,
    docs: KinveyDoc[],
    ttl?: unknown,
  ): Promise<KinveyDoc[]> {
    return this.files.expand(
      principal,
      docs,
      publicBaseUrl(req, this.options),
      ttlOf(ttl),
    );
  }

  private async expandOne(
    principal: Principal,
    req: Request,
    doc: KinveyDoc,
    ttl?: unknown,
  ): Promise<KinveyDoc> {
    return (await this.expand(principal, req, [doc], ttl))[0] as KinveyDoc;
  }

  @Get()
  @KinveyCall(
    'Ping: who this app is',
    'any credentials of the app',
    ok({
      type: 'object',
      properties: {
        version: { type: 'string' },
        kinvey: { type: 'string' },
        appName: { type: 'string' },
        environmentName: { type: 'string' },
      },
    }),
  )
  ping(@Caller() { app }: Principal): Record<string, string> {
    return {
      version: SERVER_VERSION,
      kinvey: `hello ${app.name}`,
      appName: app.name,
      environmentName: app.environmentName,
    };
  }

  @Get(':collection/_count')
  @KinveyCall(
    'Count the records matching ?query=',
    'user, master, or app (read)',
    ok(KINVEY_COUNT),
  )
  @ApiQuery({ name: 'query', required: false })
  count(
    @Caller() principal: Principal,
    @Param('collection') collection: string,
    @Req() req: Request,
  ): Promise<unknown> {
    return this.logic.around('count', principal, collection, req, async () => ({
      count: await this.records.count(
        principal,
        collection,
        DataController.paramsOf(req),
      ),
    }));
  }

  @Get(':collection/_deltaset')
  @KinveyCall(
    'Changes since ?since= (with tombstones of deletes)',
    'user, master, or app (read)',
    ok({
      type: 'object',
      properties: {
        changed: KINVEY_ENTITIES,
        deleted: {
          type: 'array',
          items: { type: 'object', properties: { _id: { type: 'string' } } },
        },
      },
    }),
  )
  @ApiQuery({ name: 'since', required: true })
  deltaSet(
    @Caller() principal: Principal,
    @Param('collection') collection: string,
    @Req() req: Request,
  ): Promise<unknown> {
    return this.logic.around(
      'deltaSet',
      principal,
      collection,
      req,
      async () => {
        const params = DataController.paramsOf(req);
        const delta = await this.records.deltaSet(
          principal,
          collection,
          params,
        );
        const changed = await this.expand(
          principal,
          req,
          delta.changed,
          params.kinveyfile_ttl,
        );
        return { ...delta, changed };
      },
    );
  }

  @Post(':collection/_group')
  @KinveyCall(
    'Aggregations of the SDKs (count, sum, min, max, average by key, with a condition), computed in SQL; any other reduce: FeatureUnavailable',
    'user, master, or app (read)',
    ok(
      { type: 'array', items: { type: 'object', additionalProperties: true } },
      'One object per group: the key fields, then the results.',
    ),
  )
  @ApiBody({ schema: { type: 'object', additionalProperties: true } })
  group(
    @Caller() principal: Principal,
    @Param('collection') collection: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<unknown> {
    res.status(200);
    return this.logic.around('group', principal, collection, req, () =>
      this.records.group(principal, collection, req.body),
    );
  }

  @Get(':collection')
  @KinveyCall(
    'Find records',
    'user, master, or app (read)',
    ok(KINVEY_ENTITIES),
  )
  @ApiQuery({
    name: 'query',
    required: false,
    description: 'MongoDB filter (JSON)',
  })
  @ApiQuery({
    name: 'sort',
    required: false,
    description: '{field: 1|-1} (JSON)',
  })
  @ApiQuery({
    name: 'fields',
    required: false,
    description: 'a,b: only these (plus _id, _acl)',
  })
  @ApiQuery({ name: 'limit', required: false, type: Number })
  @ApiQuery({ name: 'skip', required: false, type: Number })
  list(
    @Caller() principal: Principal,
    @Param('collection') collection: string,
    @Req() req: Request,
  ): Promise<unknown> {
    return this.logic.around('list', principal, collection, req, async () => {
      const params = DataController.paramsOf(req);
      const texts = await this.records.listTexts(principal, collection, params);
      return new JsonText(
        await this.files.expandTexts(
          principal,
          texts,
          publicBaseUrl(req, this.options),
          ttlOf(params.kinveyfile_ttl),
        ),
      );
    });
  }

  @Get(':collection/:id')
  @KinveyCall(
    'Get one record',
    'user, master, or app (read)',
    ok(KINVEY_ENTITY),
  )
  get(
    @Caller() principal: Principal,
    @Param('collection') collection: string,
    @Param('id') id: string,
    @Req() req: Request,
  ): Promise<unknown> {
    return this.logic.around('get', principal, collection, req, async () => {
      const doc = await this.records.get(principal, collection, id);
      const ttl = DataController.paramsOf(req).kinveyfile_ttl;
      return this.expandOne(principal, req, doc, ttl);
    });
  }

  @Post(':collection')
  @KinveyCall(
    'Create a record (an array: multi-insert, API version 5+)',
    'user, master, or app (read-create)',
    ok(
      {
        oneOf: [
          KINVEY_ENTITY,
          {
            type: 'object',
            properties: {
              entities: {
                type: 'array',
                items: { ...KINVEY_ENTITY, nullable: true },
              },
              errors: {
                type: 'array',
                items: { type: 'object', additionalProperties: true },
              },
            },
          },
        ],
      },
      'The record; for an array, `{entities, errors}` in the order sent.',
      201,
    ),
    {
      409: 'DuplicateEntity: the _id is taken.',
      413: 'RequestEntityTooLarge.',
    },
  )
  @ApiBody(RECORD_BODY)
  create(
    @Caller() principal: Principal,
    @Param('collection') collection: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<unknown> {
    res.status(201);
    return this.logic.around('create', principal, collection, req, () =>
      this.createNow(principal, collection, req.body, req, res),
    );
  }

  private async createNow(
    principal: Principal,
    collection: string,
    body: unknown,
    req: Request,
    res: Response,
  ): Promise<unknown> {
    if (!Array.isArray(body)) {
      const doc = await this.records.create(principal, collection, body);
      res.setHeader(
        'Location',
        `${req.path.replace(/\/+$/, '')}/${String(doc['_id'])}`,
      );
      return this.expandOne(principal, req, doc);
    }
    const version = apiVersionOf(req);
    if (version < 5)
      throw MarketplaceError.featureUnavailable(
        `X-Kinvey-API-Version ${version}`,
        'Creating several entities at once needs X-Kinvey-API-Version 5 or later.',
      );
    const result = await this.records.createMany(principal, collection, body);
    const stored = result.entities.filter((e): e is KinveyDoc => e !== null);
    const expanded = await this.expand(principal, req, stored);
    let next = 0;
    return {
      entities: result.entities.map((e) =>
        e === null ? null : expanded[next++],
      ),
      errors: result.errors,
    };
  }

  @Put(':collection/:id')
  @KinveyCall(
    'Replace a record, or create it with this _id (201)',
    'creator, _acl.w, master; app (read-create) only to create',
    ok(KINVEY_ENTITY, 'The record (201 when it was created).'),
    { 413: 'RequestEntityTooLarge.' },
  )
  @ApiBody(RECORD_BODY)
  update(
    @Caller() principal: Principal,
    @Param('collection') collection: string,
    @Param('id') id: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<unknown> {
    return this.logic.around('update', principal, collection, req, async () => {
      const result = await this.records.upsert(
        principal,
        collection,
        id,
        req.body,
      );
      res.status(result.created ? 201 : 200);
      return this.expandOne(principal, req, result.doc);
    });
  }

  @Delete(':collection/:id')
  @KinveyCall('Delete a record', 'creator, _acl.w, master', ok(KINVEY_COUNT))
  remove(
    @Caller() principal: Principal,
    @Param('collection') collection: string,
    @Param('id') id: string,
    @Req() req: Request,
  ): Promise<unknown> {
    return this.logic.around(
      'remove',
      principal,
      collection,
      req,
      async () => ({
        count: await this.records.remove(principal, collection, id),
      }),
    );
  }

  @Delete(':collection')
  @KinveyCall(
    'Delete the records matching ?query= (required)',
    'user (own records) or master',
    ok(KINVEY_COUNT),
  )
  @ApiQuery({ name: 'query', required: true })
  removeWhere(
    @Caller() principal: Principal,
    @Param('collection') collection: string,
    @Req() req: Request,
  ): Promise<unknown> {
    return this.logic.around(
      'removeWhere',
      principal,
      collection,
      req,
      async () => ({
        count: await this.records.removeWhere(
          principal,
          collection,
          DataController.paramsOf(req),
        ),
      }),
    );
  }
}
