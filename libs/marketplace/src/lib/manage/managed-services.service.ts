import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { CLOCK } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { BusinessLogicConfig } from '../business-logic/business-logic-config';
import { MARKETPLACE_OPTIONS } from '../common/marketplace.constants';
import {
  MarketplaceError,
  MarketplaceErrorCode,
} from '../common/marketplace.errors';
import type { MarketplaceModuleOptions } from '../common/marketplace.options';
import { isPlainObject } from '../kinvey/kinvey-doc';
import { MarketplaceDatabase } from '../persistence/marketplace-database';
import { ManageSealer } from './manage-sealer';
import { ManagedAppsRepository } from './managed-apps.repository';
import { ManagedServicesRepository } from './managed-services.repository';
import type {
  ServiceEnvironmentRow,
  ServiceRow,
} from './managed-services.repository';
import { ORGANIZATION } from './managed-views';
import { serialize } from './serialize';

const SEAL_PURPOSE = 'quitanda:managed-service-secret';
/** Kinvey's name of an External Flex service's type. */
const EXTERNAL = 'external';
export const MAX_SERVICES = 100;
export const MAX_SERVICE_ENVIRONMENTS = 20;
const MAX_NAME = 100;
const MAX_DESCRIPTION = 1_000;
const MAX_HOST = 2_048;
const MIN_SECRET = 2;
const MAX_SECRET = 256;

export interface ServiceEnvironmentView {
  readonly id: string;
  readonly name: string;
  readonly host: string;
  readonly secret: string;
  readonly description?: string;
}

export interface ServiceView {
  readonly id: string;
  readonly name: string;
  readonly type: string;
  readonly description?: string;
  readonly access: {
    readonly writers: { apps: string[] } | { organizations: string[] };
  };
  readonly environments?: ServiceEnvironmentView[];
}

function text(
  body: Readonly<Record<string, unknown>>,
  field: string,
  max: number,
  min = 1,
): string {
  const value = body[field];
  if (typeof value !== 'string' || value.trim().length < min)
    throw MarketplaceError.incompleteBody(`${field} is required.`, field);
  if (value.length > max)
    throw MarketplaceError.badRequest(
      `${field} has at most ${max} characters.`,
      field,
    );
  return value.trim();
}

function optionalText(
  body: Readonly<Record<string, unknown>>,
  field: string,
  max: number,
): string | null {
  return body[field] === undefined || body[field] === null
    ? null
    : text(body, field, max);
}

/** An http(s) URL: where the backend calls the service. */
function checkHost(body: Readonly<Record<string, unknown>>): string {
  const host = text(body, 'host', MAX_HOST);
  let url: URL | undefined;
  try {
    url = new URL(host);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw MarketplaceError.badRequest('host must be an http(s) URL.', 'host');
  return host;
}

/** Settings of internal (hosted) Flex services, which are not served. */
function refuseHosted(body: Readonly<Record<string, unknown>>): void {
  const vars = body['environmentVariables'];
  const hosted =
    (body['runtime'] !== undefined && body['runtime'] !== null) ||
    (isPlainObject(vars) && Object.keys(vars).length > 0);
  if (hosted)
    throw MarketplaceError.featureUnavailable(
      'runtime, environmentVariables',
      'Hosted (internal) Flex services are not served here: register an External Flex service by its URL.',
    );
}

/**
 * External Flex services of the management API (`service create`,
 * services in `app apply`): a name, an owner (an application, or the
 * organization) and environments, each a URL and a shared secret.
 */
@Injectable()
export class ManagedServicesService {
  private readonly sealer: ManageSealer;

  constructor(
    private readonly repository: ManagedServicesRepository,
    private readonly apps: ManagedAppsRepository,
    private readonly businessLogic: BusinessLogicConfig,
    private readonly db: MarketplaceDatabase,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(MARKETPLACE_OPTIONS) options: MarketplaceModuleOptions,
  ) {
    this.sealer = new ManageSealer(options, SEAL_PURPOSE);
  }

  async list(query: {
    appId?: string;
    expand?: string;
  }): Promise<ServiceView[]> {
    const services = await this.repository.visibleTo(query.appId);
    return this.views(services, query.expand === 'environments');
  }

  async get(id: string): Promise<ServiceView> {
    const [view] = await this.views([await this.found(id)], false);
    return view as ServiceView;
  }

  async create(body: Readonly<Record<string, unknown>>): Promise<ServiceView> {
    const name = text(body, 'name', MAX_NAME);
    if (body['type'] !== EXTERNAL)
      throw MarketplaceError.featureUnavailable(
        'type',
        'Only External Flex services (type external) are served here.',
      );
    const description = optionalText(body, 'description', MAX_DESCRIPTION);
    const managedAppId = await this.ownerOf(body['access']);
    const service = { id: randomUUID(), name, description, managedAppId };
    await this.db.transaction(async (tx) => {
      await serialize(tx, 'services');
      if ((await this.repository.count(tx)) >= MAX_SERVICES)
        throw MarketplaceError.badRequest(
          `There are at most ${MAX_SERVICES} services.`,
        );
      await this.repository.insert(service, this.clock.now(), tx);
    });
    return this.get(service.id);
  }

  /** Name and description; the type and owner stay. */
  async update(
    id: string,
    body: Readonly<Record<string, unknown>>,
  ): Promise<ServiceView> {
    const name = text(body, 'name', MAX_NAME);
    const description = optionalText(body, 'description', MAX_DESCRIPTION);
    if (!(await this.repository.update(id, name, description)))
      throw this.notFound(id);
    return this.get(id);
  }

  async environments(id: string): Promise<ServiceEnvironmentView[]> {
    await this.found(id);
    const envs = await this.repository.environmentsOf([id]);
    return envs.map((env) => this.environmentView(env));
  }

  async createEnvironment(
    serviceId: string,
    body: Readonly<Record<string, unknown>>,
  ): Promise<ServiceEnvironmentView> {
    await this.found(serviceId);
    const env = this.checkedEnvironment(randomUUID(), serviceId, body);
    await this.db.transaction(async (tx) => {
      await serialize(tx, `service-environments:${serviceId}`);
      const existing = await this.repository.environmentsOf([serviceId], tx);
      if (existing.length >= MAX_SERVICE_ENVIRONMENTS)
        throw MarketplaceError.badRequest(
          `A service has at most ${MAX_SERVICE_ENVIRONMENTS} environments.`,
        );
      if (existing.some((other) => other.name === env.name))
        throw MarketplaceError.duplicate(
          'A service environment with this name already exists.',
          env.name,
        );
      await this.repository.insertEnvironment(env, this.clock.now(), tx);
    });
    return this.environmentView(env);
  }

  async updateEnvironment(
    serviceId: string,
    envId: string,
    body: Readonly<Record<string, unknown>>,
  ): Promise<ServiceEnvironmentView> {
    const env = this.checkedEnvironment(envId, serviceId, body);
    const changed = this.environmentView(env);
    // The apps that bound it call the new host with the new secret; first,
    // so that a host or secret a Flex service cannot have changes nothing.
    await this.businessLogic.moveService(envId, {
      url: changed.host,
      sharedSecret: changed.secret,
    });
    if (!(await this.repository.updateEnvironment(env)))
      throw this.notFound(`${serviceId}/${envId}`);
    return changed;
  }

  private checkedEnvironment(
    id: string,
    serviceId: string,
    body: Readonly<Record<string, unknown>>,
  ): ServiceEnvironmentRow {
    refuseHosted(body);
    return {
      id,
      serviceId,
      name: text(body, 'name', MAX_NAME),
      host: checkHost(body),
      sealedSecret: this.sealer.seal(
        text(body, 'secret', MAX_SECRET, MIN_SECRET),
      ),
      description: optionalText(body, 'description', MAX_DESCRIPTION),
    };
  }

  /** The owning application of `access.writers`, or null (organization). */
  private async ownerOf(access: unknown): Promise<string | null> {
    const writers = isPlainObject(access) ? access['writers'] : undefined;
    const apps = isPlainObject(writers) ? writers['apps'] : undefined;
    const orgs = isPlainObject(writers) ? writers['organizations'] : undefined;
    if (Array.isArray(apps) && typeof apps[0] === 'string') {
      if (!(await this.apps.findApp(apps[0])))
        throw MarketplaceError.managedNotFound(
          MarketplaceErrorCode.AppNotFound,
          apps[0],
        );
      return apps[0];
    }
    if (Array.isArray(orgs) && orgs[0] === ORGANIZATION.id) return null;
    throw MarketplaceError.badRequest(
      'access.writers must name the owning application or the organization.',
      'access',
    );
  }

  private async found(id: string): Promise<ServiceRow> {
    const found = await this.repository.find(id);
    if (!found) throw this.notFound(id);
    return found;
  }

  private notFound(id: string): MarketplaceError {
    return MarketplaceError.managedNotFound(
      MarketplaceErrorCode.ServiceNotFound,
      id,
    );
  }

  private async views(
    services: readonly ServiceRow[],
    withEnvironments: boolean,
  ): Promise<ServiceView[]> {
    const envs = withEnvironments
      ? await this.repository.environmentsOf(services.map((s) => s.id))
      : [];
    return services.map((service) => ({
      id: service.id,
      name: service.name,
      type: EXTERNAL,
      ...(service.description ? { description: service.description } : {}),
      access: {
        writers: service.managedAppId
          ? { apps: [service.managedAppId] }
          : { organizations: [ORGANIZATION.id] },
      },
      ...(withEnvironments
        ? {
            environments: envs
              .filter((env) => env.serviceId === service.id)
              .map((env) => this.environmentView(env)),
          }
        : {}),
    }));
  }

  private environmentView(env: ServiceEnvironmentRow): ServiceEnvironmentView {
    return {
      id: env.id,
      name: env.name,
      host: env.host,
      secret: this.sealer.open(env.sealedSecret),
      ...(env.description ? { description: env.description } : {}),
    };
  }
}
