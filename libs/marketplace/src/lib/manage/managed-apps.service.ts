import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, SecretSealer } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { AppsService } from '../apps/apps.service';
import { MARKETPLACE_OPTIONS } from '../common/marketplace.constants';
import {
  MarketplaceError,
  MarketplaceErrorCode,
} from '../common/marketplace.errors';
import type { MarketplaceModuleOptions } from '../common/marketplace.options';
import { MarketplaceDatabase } from '../persistence/marketplace-database';
import { ManagedAppsRepository } from './managed-apps.repository';
import type {
  ManagedAppRow,
  ManagedEnvironmentRow,
} from './managed-apps.repository';
import { ORGANIZATION } from './managed-views';
import type { AppView, EnvironmentView } from './managed-views';

const SEAL_PURPOSE = 'quitanda:managed-environment-secret';
const MAX_NAME = 100;
export const MAX_MANAGED_APPS = 1_000;
export const MAX_ENVIRONMENTS_PER_APP = 20;

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
  private readonly sealer?: SecretSealer;

  constructor(
    private readonly repository: ManagedAppsRepository,
    private readonly apps: AppsService,
    private readonly db: MarketplaceDatabase,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(MARKETPLACE_OPTIONS) options: MarketplaceModuleOptions,
  ) {
    if (options.manageEncryptionKey)
      this.sealer = new SecretSealer(options.manageEncryptionKey, SEAL_PURPOSE);
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
    const org = body['organizationId'];
    if (org !== undefined && org !== null && org !== ORGANIZATION.id)
      throw MarketplaceError.managedNotFound(
        MarketplaceErrorCode.OrganizationNotFound,
        String(org),
      );
    if ((await this.repository.countApps()) >= MAX_MANAGED_APPS)
      throw MarketplaceError.badRequest(
        `There are at most ${MAX_MANAGED_APPS} applications.`,
      );
    const id = randomUUID();
    await this.repository.insertApp(id, name, this.clock.now());
    return { id, name, organizationId: ORGANIZATION.id, environments: [] };
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
      await this.repository.deleteApp(id, tx);
    });
  }

  async environments(appId: string): Promise<readonly EnvironmentView[]> {
    return (await this.app(appId)).environments;
  }

  async environment(appKey: string): Promise<EnvironmentView> {
    const found = await this.repository.findEnvironment(appKey);
    if (!found)
      throw MarketplaceError.managedNotFound(
        MarketplaceErrorCode.EnvironmentNotFound,
        appKey,
      );
    return this.view(found);
  }

  async createEnvironment(
    appId: string,
    body: Record<string, unknown>,
  ): Promise<EnvironmentView> {
    const name = checkName(body['name'], 'environment');
    const sealer = this.requireSealer();
    return this.db.transaction(async (tx) => {
      // Locked: a concurrent delete of the app cannot orphan the new one.
      if (!(await this.repository.lockApp(appId, tx)))
        throw MarketplaceError.managedNotFound(
          MarketplaceErrorCode.AppNotFound,
          appId,
        );
      const app = await this.repository.findApp(appId, tx);
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
        { name: app?.name ?? name, environmentName: name, definition: null },
        tx,
      );
      await this.repository.insertEnvironment(
        created.appKey,
        appId,
        sealer.seal(created.appSecret),
        sealer.seal(created.masterSecret),
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
    });
  }

  /** Deletes the environment (its marketplace app) and all its data. */
  async deleteEnvironment(appKey: string): Promise<void> {
    const found = await this.repository.findEnvironment(appKey);
    if (!found)
      throw MarketplaceError.managedNotFound(
        MarketplaceErrorCode.EnvironmentNotFound,
        appKey,
      );
    await this.db.transaction(async (tx) => {
      await this.repository.deleteEnvironment(appKey, tx);
      await this.apps.remove(appKey, tx);
    });
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
    const sealer = this.requireSealer();
    try {
      return {
        id: env.appKey,
        name: env.name,
        app: env.managedAppId,
        appSecret: sealer.open(env.sealedAppSecret),
        masterSecret: sealer.open(env.sealedMasterSecret),
      };
    } catch {
      throw MarketplaceError.featureUnavailable(
        'MARKETPLACE_MANAGE_ENCRYPTION_KEY is not the key these secrets were sealed with',
        'The secrets of this environment cannot be read on this backend.',
      );
    }
  }

  private requireSealer(): SecretSealer {
    if (!this.sealer)
      throw MarketplaceError.featureUnavailable(
        'MARKETPLACE_MANAGE_ENCRYPTION_KEY is not set',
        'Environments need MARKETPLACE_MANAGE_ENCRYPTION_KEY on this backend.',
      );
    return this.sealer;
  }
}
