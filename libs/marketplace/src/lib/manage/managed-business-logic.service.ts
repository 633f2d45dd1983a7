import { Injectable } from '@nestjs/common';

import { BusinessLogicConfig } from '../business-logic/business-logic-config';
import type { FlexTarget } from '../business-logic/business-logic.types';
import {
  MarketplaceError,
  MarketplaceErrorCode,
} from '../common/marketplace.errors';
import { HOOK_PATHS } from './hook-paths';
import { ManagedAppsService } from './managed-apps.service';
import { ManagedServicesService } from './managed-services.service';

export const MAX_ENDPOINTS = 100;
const MAX_HANDLER = 255;
/** Kinvey's custom endpoint names. */
const ENDPOINT_NAME = /^[A-Za-z0-9_-]{1,255}$/;

/** Kinvey's link of a collection to a service object (FlexData). */
export interface DataLink {
  /** The service's id. */
  readonly id: string;
  /** The service environment's id. */
  readonly backingServerId: string;
  readonly serviceObjectName: string;
}

/** A custom endpoint or hook as the management API shows it. */
export interface HandlerView {
  readonly name: string;
  readonly host: string;
  readonly sdkHandlerName: string;
}

/**
 * Custom endpoints and collection hooks of an environment, each handled by
 * a handler of an External Flex service environment (`host` is that
 * environment's id). They are the app's business logic itself: a service
 * environment an endpoint or hook names becomes a Flex service of the app
 * (named by the environment's id, its host and secret), and the bindings
 * are `BusinessLogicConfig`'s, which the Flex caller runs. Business logic
 * written as code is not served.
 */
@Injectable()
export class ManagedBusinessLogicService {
  constructor(
    private readonly config: BusinessLogicConfig,
    private readonly managed: ManagedAppsService,
    private readonly services: ManagedServicesService,
  ) {}

  async endpoints(envId: string): Promise<HandlerView[]> {
    const appKey = await this.managed.appKeyOf(envId);
    const { endpoints } = await this.config.view(appKey);
    return Object.entries(endpoints)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, target]) => view(name, target));
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
    const existing = await this.endpoints(envId);
    if (existing.some((e) => e.name === name))
      throw MarketplaceError.duplicate(
        'An endpoint with this name already exists.',
        name,
      );
    if (existing.length >= MAX_ENDPOINTS)
      throw MarketplaceError.badRequest(
        `An environment has at most ${MAX_ENDPOINTS} custom endpoints.`,
      );
    const { appKey, target } = await this.handled(envId, body);
    await this.config.setEndpoint(appKey, name, target);
    return view(name, target);
  }

  async updateEndpoint(
    envId: string,
    name: string,
    body: Readonly<Record<string, unknown>>,
  ): Promise<HandlerView> {
    await this.endpoint(envId, name);
    const { appKey, target } = await this.handled(envId, body);
    await this.config.setEndpoint(appKey, name, target);
    return view(name, target);
  }

  async deleteEndpoint(envId: string, name: string): Promise<void> {
    await this.endpoint(envId, name);
    await this.config.removeEndpoint(await this.managed.appKeyOf(envId), name);
  }

  /** Kinvey's grouping: `[{collectionName, hooks: [...]}]`. */
  async hooks(
    envId: string,
  ): Promise<{ collectionName: string; hooks: HandlerView[] }[]> {
    const appKey = await this.managed.appKeyOf(envId);
    const { hooks } = await this.config.view(appKey);
    return Object.entries(hooks).map(([collectionName, byHook]) => ({
      collectionName,
      hooks: Object.entries(byHook).map(([hook, target]) => view(hook, target)),
    }));
  }

  async putHook(
    envId: string,
    collection: string,
    path: string,
    body: Readonly<Record<string, unknown>>,
  ): Promise<HandlerView> {
    const hook = hookName(path);
    const { appKey, target } = await this.handled(envId, body);
    await this.config.setHook(appKey, collection, hook, target);
    return view(hook, target);
  }

  /**
   * The handler a body names: `host` a service environment the app may
   * use (its own services' or the organization's), `sdkHandlerName` its
   * handler. Without a host it is code, which is not served.
   */
  private async handled(
    envId: string,
    body: Readonly<Record<string, unknown>>,
  ): Promise<{ appKey: string; target: FlexTarget }> {
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
    return this.registered(envId, host, handler);
  }

  /**
   * Registers the service environment `svcEnvId` (one the app may use) as
   * the app's Flex service, keeping the timeout it has there, and names
   * its `handler` there.
   */
  private async registered(
    envId: string,
    svcEnvId: string,
    handler: string,
  ): Promise<{ appKey: string; target: FlexTarget; serviceId: string }> {
    const env = await this.managed.environment(envId);
    const usable = await this.services.list({
      appId: env.app,
      expand: 'environments',
    });
    const service = usable.find((s) =>
      s.environments?.some((e) => e.id === svcEnvId),
    );
    const svcEnv = service?.environments?.find((e) => e.id === svcEnvId);
    if (!service || !svcEnv)
      throw MarketplaceError.managedNotFound(
        MarketplaceErrorCode.ServiceNotFound,
        svcEnvId,
      );
    const appKey = await this.managed.appKeyOf(envId);
    const current = (await this.config.view(appKey)).services.find(
      (flex) => flex.name === svcEnv.id,
    );
    await this.config.setService(appKey, {
      name: svcEnv.id,
      url: svcEnv.host,
      sharedSecret: svcEnv.secret,
      timeoutMs: current?.timeoutMs,
    });
    return {
      appKey,
      target: { service: svcEnv.id, handler },
      serviceId: service.id,
    };
  }

  /** Kinvey's `dataLink` of each collection a service object serves. */
  async dataLinks(envId: string): Promise<Map<string, DataLink>> {
    const appKey = await this.managed.appKeyOf(envId);
    const entries = Object.entries(
      (await this.config.view(appKey)).dataCollections,
    );
    if (entries.length === 0) return new Map();
    const env = await this.managed.environment(envId);
    const serviceOf = new Map<string, string>();
    for (const service of await this.services.list({
      appId: env.app,
      expand: 'environments',
    }))
      for (const svcEnv of service.environments ?? [])
        serviceOf.set(svcEnv.id, service.id);
    return new Map(
      entries.map(([collection, target]) => [
        collection,
        {
          id: serviceOf.get(target.service) ?? target.service,
          backingServerId: target.service,
          serviceObjectName: target.handler,
        },
      ]),
    );
  }

  /** The collection is served by the service object `link` names. */
  async setDataLink(
    envId: string,
    collection: string,
    link: DataLink,
  ): Promise<DataLink> {
    const { appKey, target, serviceId } = await this.registered(
      envId,
      link.backingServerId,
      link.serviceObjectName,
    );
    await this.config.setDataCollection(appKey, collection, target);
    return { ...link, id: serviceId };
  }

  async removeDataLink(envId: string, collection: string): Promise<void> {
    await this.config.removeDataCollection(
      await this.managed.appKeyOf(envId),
      collection,
    );
  }
}

function view(name: string, target: FlexTarget): HandlerView {
  return { name, host: target.service, sdkHandlerName: target.handler };
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
