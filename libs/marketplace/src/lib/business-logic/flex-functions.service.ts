import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';

import type { Principal } from '../auth/principal';
import { MARKETPLACE_OPTIONS } from '../common/marketplace.constants';
import { MarketplaceError } from '../common/marketplace.errors';
import type { MarketplaceModuleOptions } from '../common/marketplace.options';
import { publicBaseUrl } from '../http/public-base-url';
import { isPlainObject } from '../kinvey/kinvey-doc';
import { BusinessLogicConfig } from './business-logic-config';
import type { FlexTarget } from './business-logic.types';
import { FlexClient } from './flex-client';
import { flexHeaders } from './flex-request';

/** What a Flex function is asked to run on (kinvey-code-task-runner's task). */
export interface FunctionTask {
  readonly hookType: 'customEndpoint' | 'pre' | 'post';
  readonly method: string;
  readonly objectName: string;
  readonly entityId?: string;
  readonly query?: Readonly<Record<string, unknown>>;
  readonly body: unknown;
  /** Post hooks: the answer so far. */
  readonly response?: { readonly status: number; readonly body: unknown };
}

/** What the function made of the task. */
export interface FunctionResult {
  readonly status: number;
  /** False when a pre-hook ends the request with its own answer. */
  readonly continue: boolean;
  readonly requestBody: unknown;
  readonly requestQuery: unknown;
  readonly responseBody: unknown;
  readonly responseHeaders: Readonly<Record<string, string>>;
}

/** An answer the caller gets as it is: status, headers, body. */
export interface FlexReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
}

/** Kinvey's status of a function's own runtimeError(). */
const FLEX_RUNTIME_STATUS = 550;
/** Headers a function's answer may not set on Quitanda's. */
const HELD_HEADERS =
  /^(content-length|content-type|transfer-encoding|connection|keep-alive|set-cookie|access-control-.*|x-request-id|x-kinvey-request-id)$/i;

/** What a header may be (RFC 9110 token names, visible values): no CRLF. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;

function stringHeaders(value: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  if (!isPlainObject(value)) return headers;
  for (const [name, header] of Object.entries(value))
    if (
      typeof header === 'string' &&
      HEADER_NAME.test(name) &&
      HEADER_VALUE.test(header) &&
      !HELD_HEADERS.test(name)
    )
      headers[name] = header;
  return headers;
}

function debugOf(body: unknown): string {
  if (!isPlainObject(body)) return '';
  const debug = body['debug'] ?? body['description'];
  return typeof debug === 'string' ? debug : JSON.stringify(debug ?? '');
}

/** Runs Flex functions: custom endpoints and collection hooks. */
@Injectable()
export class FlexFunctionsService {
  constructor(
    private readonly config: BusinessLogicConfig,
    private readonly client: FlexClient,
    @Inject(MARKETPLACE_OPTIONS)
    private readonly options: MarketplaceModuleOptions,
  ) {}

  async run(
    principal: Principal,
    req: Request,
    target: FlexTarget,
    task: FunctionTask,
  ): Promise<FunctionResult> {
    const service = await this.config.service(
      principal.app.appKey,
      target.service,
    );
    const answer = await this.client.call(service, {
      method: 'POST',
      path: `/_flexFunctions/${encodeURIComponent(target.handler)}`,
      headers: flexHeaders(
        service,
        principal,
        req,
        publicBaseUrl(req, this.options),
      ),
      body: {
        hookType: task.hookType,
        method: task.method,
        objectName: task.objectName,
        entityId: task.entityId,
        query: task.query,
        // The receiver reads the whole envelope as the body when this is empty.
        body: task.body ?? {},
        tempObjectStore: {},
        response: task.response && {
          status: task.response.status,
          headers: {},
          body: task.response.body,
        },
      },
      request: req,
    });
    const body = answer.body;
    if (
      !isPlainObject(body) ||
      !isPlainObject(body['request']) ||
      !isPlainObject(body['response'])
    )
      throw MarketplaceError.blRuntime(
        `the Flex function ${target.handler} answered ${answer.status} without a task result`,
      );
    const request = body['request'];
    const response = body['response'];
    if (answer.status === FLEX_RUNTIME_STATUS)
      throw MarketplaceError.blRuntime(debugOf(response['body']));
    return {
      status: answer.status,
      // The task runner says it in the result (its header only on errors).
      continue:
        typeof response['continue'] === 'boolean'
          ? response['continue']
          : answer.continue,
      requestBody: request['body'],
      requestQuery: request['query'],
      responseBody: response['body'],
      responseHeaders: stringHeaders(response['headers']),
    };
  }

  /** The app's custom endpoint `name`, or undefined when none is bound. */
  async endpoint(
    principal: Principal,
    req: Request,
    name: string,
    args: unknown,
  ): Promise<FlexReply | undefined> {
    const logic = await this.config.snapshot(principal.app.appKey);
    const target = logic.endpoints.get(name);
    if (!target) return undefined;
    const result = await this.run(principal, req, target, {
      hookType: 'customEndpoint',
      method: 'POST',
      objectName: name,
      body: args,
    });
    return {
      status: result.status,
      headers: result.responseHeaders,
      body: result.responseBody,
    };
  }
}
