import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { CLOCK } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { AppsService } from '../apps/apps.service';
import { MARKETPLACE_OPTIONS } from '../common/marketplace.constants';
import {
  MarketplaceError,
  MarketplaceErrorCode,
} from '../common/marketplace.errors';
import type { MarketplaceModuleOptions } from '../common/marketplace.options';
import { MarketplaceDatabase } from '../persistence/marketplace-database';
import type { MarketplaceTx } from '../persistence/marketplace-database';
import { ManageSealer } from './manage-sealer';
import { ManagedAppsRepository } from './managed-apps.repository';
import { ManagedServicesRepository } from './managed-services.repository';
import type {
  ManagedAppRow,
  ManagedEnvironmentRow,
} from './managed-apps.repository';
import { ORGANIZATION } from './managed-views';
import { serialize } from './serialize';
import type { AppView, EnvironmentView } from './managed-views';

const SEAL_PURPOSE = 'quitanda:managed-environment-secret';
const MAX_NAME = 100;
export const MAX_MANAGED_APPS = 1_000;
export const MAX_ENVIRONMENTS_PER_APP = 20;

const DEFAULT_ENVIRONMENT = 'Development';

/** The organization a body names, when it names one, must be the one. */
function checkOrganization(body: Readonly<Record<string, unknown>>): void {
  const org = body['organizationId'];
  if (org !== undefined && org !== null && org !== ORGANIZATION.id)
    throw MarketplaceError.managedNotFound(
      MarketplaceErrorCode.OrganizationNotFound,
      String(org),
    );
}

/** Kinvey settings this backend has no counterpart of, when they are set. */
function refuseSettings(
  body: Readonly<Record<string, unknown>>,
  names: readonly string[],
): void {
  const set = names.filter(
    (name) => body[name] !== undefined && body[name] !== null,
  );
  if (set.length > 0)
    throw MarketplaceError.featureUnavailable(
      set.join(', '),
      `These settings are not served here: ${set.join(', ')}.`,
    );
}

function checkName(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw MarketplaceError.incompleteBody(`The ${what} needs a name.`, 'name');
  const name = value.trim();
  if (name.length > MAX_NAME)
    throw MarketplaceError.badRequest(
      `A ${what} name has at most ${MAX_NAME} characters.`,
      'name',
    );
  return name;
}

/**
 * Kinvey's applications and environments over marketplace apps: an
 * environment is a marketplace app (its key the environment id), an
 * application a named group of them.
 */
@Injectable()
export class ManagedAppsService {
  private readonly sealer: ManageSealer;

  constructor(
    private readonly repository: ManagedAppsRepository,
    private readonly services: ManagedServicesRepository,
    private readonly apps: AppsService,
    private readonly db: MarketplaceDatabase,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(MARKETPLACE_OPTIONS) options: MarketplaceModuleOptions,
  ) {
    this.sealer = new ManageSealer(options, SEAL_PURPOSE);
  }

  organizations(): (typeof ORGANIZATION)[] {
    return [ORGANIZATION];
  }

  organization(id: string): typeof ORGANIZATION {
    if (id !== ORGANIZATION.id)
      throw MarketplaceError.managedNotFound(
        MarketplaceErrorCode.OrganizationNotFound,
        id,
      );
    return ORGANIZATION;
  }

  async listApps(): Promise<AppView[]> {
    const apps = await this.repository.listApps();
    return this.withEnvironments(apps);
  }

  async app(id: string): Promise<AppView> {
    const found = await this.repository.findApp(id);
    if (!found)
      throw MarketplaceError.managedNotFound(
        MarketplaceErrorCode.AppNotFound,
        id,
      );
    const [view] = await this.withEnvironments([found]);
    return view as AppView;
  }

  async createApp(body: Record<string, unknown>): Promise<AppView> {
    const name = checkName(body['name'], 'application');
    checkOrganization(body);
    this.sealer.required();
    const id = randomUUID();
    // Kinvey makes every application with a Development environment;
    // kinvey-cli's `app create --file` applies the first one to it.
    const development = await this.db.transaction(async (tx) => {
      await serialize(tx, 'apps');
      if ((await this.repository.countApps(tx)) >= MAX_MANAGED_APPS)
        throw MarketplaceError.badRequest(
          `There are at most ${MAX_MANAGED_APPS} applications.`,
        );
      await this.repository.insertApp(id, name, this.clock.now(), tx);
      return this.addEnvironment(id, name, DEFAULT_ENVIRONMENT, tx);
    });
    return {
      id,
      name,
      organizationId: ORGANIZATION.id,
      environments: [development],
    };
  }

  /** Renames an application (the only setting it has here). */
  async updateApp(id: string, body: Record<string, unknown>): Promise<AppView> {
    const name = checkName(body['name'], 'application');
    checkOrganization(body);
    refuseSettings(body, ['realtime', 'sessionTimeoutInSeconds']);
    if (!(await this.repository.renameApp(id, name)))
      throw MarketplaceError.managedNotFound(
        MarketplaceErrorCode.AppNotFound,
        id,
      );
    return this.app(id);
  }

  /** Deletes the application, its environments and all their data. */
  async deleteApp(id: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (!(await this.repository.lockApp(id, tx)))
        throw MarketplaceError.managedNotFound(
          MarketplaceErrorCode.AppNotFound,
          id,
        );
      for (const env of await this.repository.environmentsOf([id], tx)) {
        await this.repository.deleteEnvironment(env.appKey, tx);
        await this.apps.remove(env.appKey, tx);
      }
      await this.services.deleteOwnedBy(id, tx);
      await this.repository.deleteApp(id, tx);
    });
  }

  async environments(appId: string): Promise<readonly EnvironmentView[]> {
    return (await this.app(appId)).environments;
  }

  async environment(appKey: string): Promise<EnvironmentView> {
    return this.view(await this.found(appKey));
  }

  /** The app key of an environment, without opening its secrets. */
  async appKeyOf(envId: string): Promise<string> {
    return (await this.found(envId)).appKey;
  }

  async createEnvironment(
    appId: string,
    body: Record<string, unknown>,
  ): Promise<EnvironmentView> {
    const name = checkName(body['name'], 'environment');
    this.sealer.required();
    return this.db.transaction(async (tx) => {
      // Locked: a concurrent delete of the app cannot orphan the new one.
      if (!(await this.repository.lockApp(appId, tx)))
        throw MarketplaceError.managedNotFound(
          MarketplaceErrorCode.AppNotFound,
          appId,
        );
      const app = await this.repository.findApp(appId, tx);
      return this.addEnvironment(appId, app?.name ?? name, name, tx);
    });
  }

  /** Renames an environment (the only setting it has here). */
  async updateEnvironment(
    appKey: string,
    body: Record<string, unknown>,
  ): Promise<EnvironmentView> {
    const name = checkName(body['name'], 'environment');
    refuseSettings(body, ['apiVersion', 'emailVerification']);
    const env = await this.found(appKey);
    if (name !== env.name) {
      const siblings = await this.repository.environmentsOf([env.managedAppId]);
      if (siblings.some((other) => other.name === name))
        throw MarketplaceError.duplicate(
          'An environment with this name already exists in this application.',
          name,
        );
      await this.apps.setEnvironmentName(appKey, name);
    }
    return this.environment(appKey);
  }

  /** Deletes the environment (its marketplace app) and all its data. */
  async deleteEnvironment(appKey: string): Promise<void> {
    await this.found(appKey);
    await this.db.transaction(async (tx) => {
      await this.repository.deleteEnvironment(appKey, tx);
      await this.apps.remove(appKey, tx);
    });
  }

  private async found(appKey: string): Promise<ManagedEnvironmentRow> {
    const found = await this.repository.findEnvironment(appKey);
    if (!found)
      throw MarketplaceError.managedNotFound(
        MarketplaceErrorCode.EnvironmentNotFound,
        appKey,
      );
    return found;
  }

  /** A new environment of a locked (or new) application, within `tx`. */
  private async addEnvironment(
    appId: string,
    appName: string,
    name: string,
    tx: MarketplaceTx,
  ): Promise<EnvironmentView> {
    const existing = await this.repository.environmentsOf([appId], tx);
    if (existing.length >= MAX_ENVIRONMENTS_PER_APP)
      throw MarketplaceError.badRequest(
        `An application has at most ${MAX_ENVIRONMENTS_PER_APP} environments.`,
      );
    if (existing.some((env) => env.name === name))
      throw MarketplaceError.duplicate(
        'An environment with this name already exists in this application.',
        name,
      );
    const created = await this.apps.create(
      { name: appName, environmentName: name, definition: null },
      tx,
    );
    await this.repository.insertEnvironment(
      created.appKey,
      appId,
      this.sealer.seal(created.appSecret),
      this.sealer.seal(created.masterSecret),
      this.clock.now(),
      tx,
    );
    return {
      id: created.appKey,
      name,
      app: appId,
      appSecret: created.appSecret,
      masterSecret: created.masterSecret,
    };
  }

  private async withEnvironments(
    apps: readonly ManagedAppRow[],
  ): Promise<AppView[]> {
    const envs = await this.repository.environmentsOf(apps.map((a) => a.id));
    return apps.map((app) => ({
      id: app.id,
      name: app.name,
      organizationId: ORGANIZATION.id,
      environments: envs
        .filter((env) => env.managedAppId === app.id)
        .map((env) => this.view(env)),
    }));
  }

  private view(env: ManagedEnvironmentRow): EnvironmentView {
    return {
      id: env.appKey,
      name: env.name,
      app: env.managedAppId,
      appSecret: this.sealer.open(env.sealedAppSecret),
      masterSecret: this.sealer.open(env.sealedMasterSecret),
    };
  }
}
