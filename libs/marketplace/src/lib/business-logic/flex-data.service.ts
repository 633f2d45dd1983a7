import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';

import { nextAcl, requireAccess } from '../auth/access';
import type { Principal } from '../auth/principal';
import { CollectionsService } from '../app-collections/collections.service';
import { MARKETPLACE_OPTIONS } from '../common/marketplace.constants';
import { MarketplaceError } from '../common/marketplace.errors';
import type { MarketplaceModuleOptions } from '../common/marketplace.options';
import { publicBaseUrl } from '../http/public-base-url';
import { isPlainObject } from '../kinvey/kinvey-doc';
import type { KinveyDoc } from '../kinvey/kinvey-doc';
import { mayRead, mayWrite, requireCreate } from '../records/collection-access';
import type { PermissionLevel } from '../collections/collection-settings';
import { BusinessLogicConfig } from './business-logic-config';
import type { FlexService, FlexTarget } from './business-logic.types';
import { FlexClient } from './flex-client';
import type { FlexCall } from './flex-client';
import { flexHeaders } from './flex-request';
import type { FlexReply } from './flex-functions.service';

export type DataOperation =
  'list' | 'get' | 'count' | 'create' | 'update' | 'remove' | 'removeWhere';

/** The Kinvey query parameters a FlexData service is handed as they came. */
const QUERY_PARAMS = ['query', 'sort', 'limit', 'skip', 'fields'];
const FLEX_RUNTIME_STATUS = 550;

function queryString(req: Request): string {
  const params = new URLSearchParams();
  const query = req.query as Record<string, unknown>;
  for (const name of QUERY_PARAMS) {
    const value = query[name];
    if (typeof value === 'string') params.set(name, value);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function isDoc(value: unknown): value is KinveyDoc {
  return isPlainObject(value);
}

/**
 * The entity with the `_acl` Quitanda would store (the caller as creator
 * of a new one): a service that keeps it gets entity-level rights; one
 * that does not leaves its entities to the master (and to all under "full").
 */
function withAcl(
  principal: Principal,
  body: unknown,
  existing: KinveyDoc | undefined,
): unknown {
  if (!isDoc(body)) return body;
  return { ...body, _acl: nextAcl(principal, body['_acl'], existing) };
}

/**
 * FlexData: a collection whose records a Flex service object keeps. The
 * collection's permission level still holds, enforced here: reads need
 * read access and see only what the caller may read (by the entities'
 * `_acl`), creates follow the level, updates and deletes of one entity
 * check it as the service has it, and deletes by query are the master's
 * (or anyone's under "full").
 */
@Injectable()
export class FlexDataService {
  constructor(
    private readonly config: BusinessLogicConfig,
    private readonly client: FlexClient,
    private readonly collections: CollectionsService,
    @Inject(MARKETPLACE_OPTIONS)
    private readonly options: MarketplaceModuleOptions,
  ) {}

  async serve(
    principal: Principal,
    req: Request,
    collection: string,
    target: FlexTarget,
    operation: DataOperation,
  ): Promise<FlexReply> {
    const appKey = principal.app.appKey;
    // Its own collection through the app would call it again, and again.
    if (principal.kind !== 'user' && principal.flexService === target.service)
      throw MarketplaceError.blRuntime(
        `the Flex service ${target.service} called its own FlexData collection ${collection} through the app`,
      );
    const level: PermissionLevel =
      (await this.collections.find(appKey, collection))?.permissions ??
      'shared';
    const service = await this.config.service(appKey, target.service);
    const base = `/${encodeURIComponent(target.handler)}`;
    const id = encodeURIComponent(String(req.params['id'] ?? ''));
    const send = (call: Omit<FlexCall, 'headers' | 'request'>) =>
      this.send(service, principal, req, call);
    switch (operation) {
      case 'count':
        requireAccess(principal, 'read');
        return send({
          method: 'GET',
          path: `${base}/_count${queryString(req)}`,
        });
      case 'list': {
        requireAccess(principal, 'read');
        const reply = await send({
          method: 'GET',
          path: `${base}${queryString(req)}`,
        });
        if (reply.status >= 300 || !Array.isArray(reply.body)) return reply;
        return {
          ...reply,
          body: reply.body.filter(
            (doc) => isDoc(doc) && mayRead(principal, level, doc),
          ),
        };
      }
      case 'get': {
        requireAccess(principal, 'read');
        const reply = await send({ method: 'GET', path: `${base}/${id}` });
        if (
          reply.status < 300 &&
          (!isDoc(reply.body) || !mayRead(principal, level, reply.body))
        )
          throw MarketplaceError.entityNotFound(String(req.params['id']));
        return reply;
      }
      case 'create':
        requireCreate(principal, level);
        return send({
          method: 'POST',
          path: base,
          body: withAcl(principal, req.body, undefined),
        });
      case 'update': {
        const existing = await this.requireWrite(principal, level, () =>
          send({ method: 'GET', path: `${base}/${id}` }),
        );
        // Unread (master, "full"): the body goes as sent, `_acl` included.
        return send({
          method: 'PUT',
          path: `${base}/${id}`,
          body: existing ? withAcl(principal, req.body, existing) : req.body,
        });
      }
      case 'remove':
        await this.requireWrite(principal, level, () =>
          send({ method: 'GET', path: `${base}/${id}` }),
        );
        return send({ method: 'DELETE', path: `${base}/${id}` });
      case 'removeWhere':
        if (
          principal.kind !== 'master' &&
          !(level === 'full' && principal.kind === 'user')
        )
          throw MarketplaceError.insufficient(
            'deleting by query from a FlexData collection needs the master secret',
          );
        return send({ method: 'DELETE', path: `${base}${queryString(req)}` });
    }
  }

  /**
   * Refuses a change the caller may not make to the entity the service
   * has; that entity, when it was read (a user's change under "shared" or
   * "private", which `_acl` decides).
   */
  private async requireWrite(
    principal: Principal,
    level: PermissionLevel,
    current: () => Promise<FlexReply>,
  ): Promise<KinveyDoc | undefined> {
    if (principal.kind === 'master') return undefined;
    if (principal.kind === 'app' || level === 'read-only')
      throw MarketplaceError.insufficient(
        'the collection is not writable with these credentials',
      );
    if (level === 'full') return undefined;
    const existing = await current();
    // Not there: the service answers the change itself (its 404).
    if (existing.status >= 300) return undefined;
    if (!isDoc(existing.body) || !mayWrite(principal, level, existing.body))
      throw MarketplaceError.insufficient(
        'the entity is not writable by this user',
      );
    return existing.body;
  }

  private async send(
    service: FlexService,
    principal: Principal,
    req: Request,
    call: Omit<FlexCall, 'headers' | 'request'>,
  ): Promise<FlexReply> {
    const answer = await this.client.call(service, {
      ...call,
      headers: flexHeaders(
        service,
        principal,
        req,
        publicBaseUrl(req, this.options),
      ),
      request: req,
    });
    if (answer.status === FLEX_RUNTIME_STATUS)
      throw MarketplaceError.blRuntime(
        isPlainObject(answer.body) ? String(answer.body['debug'] ?? '') : '',
      );
    return { status: answer.status, headers: {}, body: answer.body };
  }
}
