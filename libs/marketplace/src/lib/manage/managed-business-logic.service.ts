import { Injectable } from '@nestjs/common';

import { checkCollectionName } from '../collections/collection-settings';
import {
  MarketplaceError,
  MarketplaceErrorCode,
} from '../common/marketplace.errors';
import { MarketplaceDatabase } from '../persistence/marketplace-database';
import { HOOK_PATHS } from './business-logic-config';
import type { BusinessLogicConfig } from './business-logic-config';
import { ManagedAppsService } from './managed-apps.service';
import { ManagedBusinessLogicRepository } from './managed-business-logic.repository';
import type { EndpointRow } from './managed-business-logic.repository';
import { ManagedServicesService } from './managed-services.service';
import { serialize } from './serialize';

export const MAX_ENDPOINTS = 100;
const MAX_HANDLER = 255;
/** Kinvey's custom endpoint names. */
const ENDPOINT_NAME = /^[A-Za-z0-9_-]{1,255}$/;

/** A custom endpoint or hook as the management API shows it. */
export interface HandlerView {
  readonly name: string;
  readonly host: string;
  readonly sdkHandlerName: string;
}

/**
 * Custom endpoints and collection hooks of an environment, each handled by
 * a handler of an External Flex service environment (`host` is that
 * environment's id). Business logic written as code is not served.
 */
@Injectable()
export class ManagedBusinessLogicService {
  constructor(
    private readonly repository: ManagedBusinessLogicRepository,
    private readonly managed: ManagedAppsService,
    private readonly services: ManagedServicesService,
    private readonly db: MarketplaceDatabase,
  ) {}

  async endpoints(envId: string): Promise<HandlerView[]> {
    const appKey = await this.managed.appKeyOf(envId);
    return (await this.repository.endpoints(appKey)).map(view);
  }

  async endpoint(envId: string, name: string): Promise<HandlerView> {
    const found = (await this.endpoints(envId)).find((e) => e.name === name);
    if (!found) throw MarketplaceError.endpointNotFound(name);
    return found;
  }

  async createEndpoint(
    envId: string,
    body: Readonly<Record<string, unknown>>,
  ): Promise<HandlerView> {
    const name = body['name'];
    if (typeof name !== 'string' || !ENDPOINT_NAME.test(name))
      throw MarketplaceError.badRequest(
        'An endpoint name is 1 to 255 letters, digits, _ or -.',
        'name',
      );
    const appKey = await this.managed.appKeyOf(envId);
    const row = await this.handled(envId, name, body);
    await this.db.transaction(async (tx) => {
      await serialize(tx, `endpoints:${appKey}`);
      const existing = await this.repository.endpoints(appKey, tx);
      if (existing.length >= MAX_ENDPOINTS)
        throw MarketplaceError.badRequest(
          `An environment has at most ${MAX_ENDPOINTS} custom endpoints.`,
        );
      if (!(await this.repository.insertEndpoint(appKey, row, tx)))
        throw MarketplaceError.duplicate(
          'An endpoint with this name already exists.',
          name,
        );
    });
    return view(row);
  }

  async updateEndpoint(
    envId: string,
    name: string,
    body: Readonly<Record<string, unknown>>,
  ): Promise<HandlerView> {
    const appKey = await this.managed.appKeyOf(envId);
    const row = await this.handled(envId, name, body);
    if (!(await this.repository.updateEndpoint(appKey, row)))
      throw MarketplaceError.endpointNotFound(name);
    return view(row);
  }

  async deleteEndpoint(envId: string, name: string): Promise<void> {
    const appKey = await this.managed.appKeyOf(envId);
    if (!(await this.repository.deleteEndpoint(appKey, name)))
      throw MarketplaceError.endpointNotFound(name);
  }

  /** Kinvey's grouping: `[{collectionName, hooks: [...]}]`. */
  async hooks(
    envId: string,
  ): Promise<{ collectionName: string; hooks: HandlerView[] }[]> {
    const appKey = await this.managed.appKeyOf(envId);
    const byCollection = new Map<string, HandlerView[]>();
    for (const row of await this.repository.hooks(appKey)) {
      const hooks = byCollection.get(row.collection) ?? [];
      hooks.push(view(row));
      byCollection.set(row.collection, hooks);
    }
    return [...byCollection].map(([collectionName, hooks]) => ({
      collectionName,
      hooks,
    }));
  }

  async putHook(
    envId: string,
    collection: string,
    path: string,
    body: Readonly<Record<string, unknown>>,
  ): Promise<HandlerView> {
    const appKey = await this.managed.appKeyOf(envId);
    const row = {
      ...(await this.handled(envId, hookName(path), body)),
      collection: checkCollectionName(collection),
    };
    await this.repository.putHook(appKey, row);
    return view(row);
  }

  /** Everything the Flex caller needs for the app `appKey`. */
  async configOf(appKey: string): Promise<BusinessLogicConfig> {
    const env = await this.managed.environment(appKey);
    const endpoints = await this.repository.endpoints(appKey);
    const hooks = await this.repository.hooks(appKey);
    const services = await this.services.list({
      appId: env.app,
      expand: 'environments',
    });
    return {
      services: services.flatMap((service) =>
        (service.environments ?? []).map((svcEnv) => ({
          id: svcEnv.id,
          serviceId: service.id,
          serviceName: service.name,
          name: svcEnv.name,
          url: svcEnv.host,
          secret: svcEnv.secret,
        })),
      ),
      endpoints: endpoints.map((e) => ({
        name: e.name,
        serviceEnvironmentId: e.serviceEnvironmentId,
        handler: e.handlerName,
      })),
      hooks: hooks.map((h) => ({
        collection: h.collection,
        hook: h.name,
        serviceEnvironmentId: h.serviceEnvironmentId,
        handler: h.handlerName,
      })),
    };
  }

  /**
   * The handler a body names: `host` a service environment the app may
   * use (its own services' or the organization's), `sdkHandlerName` its
   * handler. Without a host it is code, which is not served.
   */
  private async handled(
    envId: string,
    name: string,
    body: Readonly<Record<string, unknown>>,
  ): Promise<EndpointRow> {
    const host = body['host'];
    if (typeof host !== 'string' || host === '')
      throw MarketplaceError.featureUnavailable(
        'code',
        'Business logic written as code is not served here: map it to an External Flex service (type external, service, serviceEnvironment, handlerName).',
      );
    if (body['schedule'] !== undefined && body['schedule'] !== null)
      throw MarketplaceError.featureUnavailable(
        'schedule',
        'Scheduled custom endpoints are not served here.',
      );
    const handler = body['sdkHandlerName'];
    if (
      typeof handler !== 'string' ||
      handler === '' ||
      handler.length > MAX_HANDLER
    )
      throw MarketplaceError.incompleteBody(
        'sdkHandlerName (1 to 255 characters) is required.',
        'sdkHandlerName',
      );
    const env = await this.managed.environment(envId);
    const usable = await this.services.list({
      appId: env.app,
      expand: 'environments',
    });
    if (!usable.some((s) => s.environments?.some((e) => e.id === host)))
      throw MarketplaceError.managedNotFound(
        MarketplaceErrorCode.ServiceNotFound,
        host,
      );
    return { name, serviceEnvironmentId: host, handlerName: handler };
  }
}

function view(row: EndpointRow): HandlerView {
  return {
    name: row.name,
    host: row.serviceEnvironmentId,
    sdkHandlerName: row.handlerName,
  };
}

/** The Kinvey hook name of a management path's (`pre-save` -> `onPreSave`). */
function hookName(path: string): string {
  const name = Object.keys(HOOK_PATHS).find((key) => HOOK_PATHS[key] === path);
  if (!name)
    throw MarketplaceError.badRequest(
      `The hook must be one of ${Object.values(HOOK_PATHS).join(', ')}.`,
      path,
    );
  return name;
}
