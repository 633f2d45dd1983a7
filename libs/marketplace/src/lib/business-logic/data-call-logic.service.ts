import { Injectable } from '@nestjs/common';
import { JsonText } from '@quitanda/http';
import type { Request, Response } from 'express';

import type { Principal } from '../auth/principal';
import { MarketplaceError } from '../common/marketplace.errors';
import { isPlainObject } from '../kinvey/kinvey-doc';
import { DataCallLogic, USER_COLLECTION } from '../records/data-call-logic';
import type { DataCall } from '../records/data-call-logic';
import { BusinessLogicConfig } from './business-logic-config';
import type { CollectionHook, FlexTarget } from './business-logic.types';
import { FlexDataService } from './flex-data.service';
import type { DataOperation } from './flex-data.service';
import { FlexFunctionsService } from './flex-functions.service';
import type { FlexReply, FunctionTask } from './flex-functions.service';

type HookPair = readonly [pre: CollectionHook, post: CollectionHook];

const FETCH: HookPair = ['onPreFetch', 'onPostFetch'];
const SAVE: HookPair = ['onPreSave', 'onPostSave'];
const DELETE: HookPair = ['onPreDelete', 'onPostDelete'];

const NO_HOOKS = undefined;

/** The data calls business logic applies to (`_group` and `_deltaset`: none). */
const OPERATIONS: Readonly<
  Partial<Record<DataCall, [DataOperation, HookPair | undefined]>>
> = {
  list: ['list', FETCH],
  get: ['get', FETCH],
  // A count fetches no entities for a hook to see (FlexData counts).
  count: ['count', NO_HOOKS],
  create: ['create', SAVE],
  update: ['update', SAVE],
  remove: ['remove', DELETE],
  removeWhere: ['removeWhere', DELETE],
};

/**
 * Hooks do not run for a Flex service's own calls back (no loops), nor
 * for the master secret's calls that skip business logic, as Kinvey's.
 */
function skipsHooks(principal: Principal, req: Request): boolean {
  if (principal.kind === 'user') return false;
  if (principal.flexService !== undefined) return true;
  return (
    principal.kind === 'master' &&
    req.headers['x-kinvey-skip-business-logic'] === 'true'
  );
}

function paramOf(req: Request, name: string): string | undefined {
  const value = req.params[name];
  return typeof value === 'string' ? value : undefined;
}

function carriesBody(req: Request): boolean {
  return req.method === 'POST' || req.method === 'PUT';
}

/** Express sets it on every request it routes. */
function responseOf(req: Request): Response {
  return req.res as Response;
}

/** The task of a collection hook: the data call as the function sees it. */
function hookTask(
  req: Request,
  collection: string,
  hookType: 'pre' | 'post',
): FunctionTask {
  return {
    hookType,
    method: req.method,
    objectName: collection,
    entityId: paramOf(req, 'id'),
    query: req.query as Record<string, unknown>,
    body: carriesBody(req) ? req.body : {},
  };
}

function replaceQuery(req: Request, query: unknown): void {
  if (!isPlainObject(query)) return;
  // Express 5 parses `req.query` on each read: the hook's takes its place.
  Object.defineProperty(req, 'query', {
    value: { ...(req.query as object), ...query },
    configurable: true,
    enumerable: true,
  });
}

/**
 * Business logic around the data and user calls: a FlexData collection is answered
 * by its service; otherwise the collection's pre-hook may change the
 * request or answer it, and its post-hook the answer. Without business
 * logic for the app (or the collection) it costs one cached lookup.
 */
@Injectable()
export class DataCallLogicService extends DataCallLogic {
  constructor(
    private readonly config: BusinessLogicConfig,
    private readonly functions: FlexFunctionsService,
    private readonly data: FlexDataService,
  ) {
    super();
  }

  override async around(
    call: DataCall,
    principal: Principal,
    collection: string,
    req: Request,
    run: () => Promise<unknown>,
  ): Promise<unknown> {
    const logic = await this.config.snapshot(principal.app.appKey);
    if (logic.services.size === 0) return run();
    const operation = OPERATIONS[call];
    // Users are Quitanda's own: never served by a FlexData service.
    const dataTarget =
      collection === USER_COLLECTION
        ? undefined
        : logic.dataCollections.get(collection);
    if (dataTarget && !operation)
      throw MarketplaceError.featureUnavailable(
        `${call} of FlexData collection ${collection}`,
        "A FlexData collection's service answers finds, counts and writes only.",
      );
    if (!operation) return run();
    const [dataOperation, hookPair] = operation;
    if (dataTarget) {
      const reply = await this.data.serve(
        principal,
        req,
        collection,
        dataTarget,
        dataOperation,
      );
      return answer(responseOf(req), reply);
    }
    const hooks = logic.hooks.get(collection);
    if (!hooks || !hookPair || skipsHooks(principal, req)) return run();
    const pre = hooks.get(hookPair[0]);
    const post = hooks.get(hookPair[1]);
    if (pre) {
      const ended = await this.pre(principal, req, collection, pre);
      if (ended) return answer(responseOf(req), ended);
    }
    const body = await run();
    if (!post) return body;
    return this.post(principal, req, collection, post, body);
  }

  /** The pre-hook's own answer when it ends the request, else undefined. */
  private async pre(
    principal: Principal,
    req: Request,
    collection: string,
    target: FlexTarget,
  ): Promise<FlexReply | undefined> {
    const result = await this.functions.run(
      principal,
      req,
      target,
      hookTask(req, collection, 'pre'),
    );
    if (!result.continue)
      return {
        status: result.status,
        headers: result.responseHeaders,
        body: result.responseBody,
      };
    if (carriesBody(req)) req.body = result.requestBody;
    replaceQuery(req, result.requestQuery);
    return undefined;
  }

  /** The answer as the post-hook leaves it (an error status it sets wins). */
  private async post(
    principal: Principal,
    req: Request,
    collection: string,
    target: FlexTarget,
    body: unknown,
  ): Promise<unknown> {
    const res = responseOf(req);
    const plain = body instanceof JsonText ? body.toJSON() : body;
    const result = await this.functions.run(principal, req, target, {
      ...hookTask(req, collection, 'post'),
      response: { status: res.statusCode, body: plain },
    });
    if (result.status >= 400) res.status(result.status);
    return result.responseBody;
  }
}

function answer(res: Response, reply: FlexReply): unknown {
  res.status(reply.status);
  for (const [name, value] of Object.entries(reply.headers))
    res.setHeader(name, value);
  return reply.body;
}
