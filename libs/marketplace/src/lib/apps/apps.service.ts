import { randomBytes, randomInt } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, digestsEqual, hashToken } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { definitionOf } from '../collections/produce-definition';
import { MarketplaceError } from '../common/marketplace.errors';
import type { MarketplaceTx } from '../persistence/marketplace-database';
import type {
  AppCredentialAccess,
  AppCredentials,
  AppRecord,
} from './app.types';
import { AppsRepository } from './apps.repository';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Apps change only through the CLI or a reboot; a short cache spares a query per request. */
const CACHE_MS = 5_000;

/** `kid_` + 16 base-62 characters, as Kinvey's app keys look. */
function newAppKey(): string {
  let key = 'kid_';
  for (let i = 0; i < 16; i++) key += BASE62[randomInt(BASE62.length)];
  return key;
}

/** 32 random hex characters. */
function newAppSecret(): string {
  return randomBytes(16).toString('hex');
}

export interface NewApp {
  readonly name: string;
  readonly appKey?: string;
  readonly appSecret?: string;
  readonly masterSecret?: string;
  readonly environmentName?: string;
  readonly appCredentialAccess?: AppCredentialAccess;
  /**
   * The shipped definition whose collections the app gets. None by
   * default (or `null`): the operator declares every collection, as the
   * contract wants of `marketplace:apps:create`; the first-boot and
   * configured apps are the produce app's.
   */
  readonly definition?: string | null;
  readonly createCollectionsOnWrite?: boolean;
}

/** Which secret of the app a candidate is, compared in constant time. */
export function secretKind(
  app: AppRecord,
  candidate: string,
): 'master' | 'app' | undefined {
  const digest = hashToken(candidate);
  // Both comparisons always run, so timing says nothing about which matched.
  const master = digestsEqual(digest, app.masterSecretDigest);
  const plain = digestsEqual(digest, app.appSecretDigest);
  if (master) return 'master';
  return plain ? 'app' : undefined;
}

@Injectable()
export class AppsService {
  private readonly cache = new Map<string, { app: AppRecord; at: number }>();

  constructor(
    private readonly repository: AppsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async create(input: NewApp, tx?: MarketplaceTx): Promise<AppCredentials> {
    const appSecret = input.appSecret ?? newAppSecret();
    const masterSecret = input.masterSecret ?? newAppSecret();
    if (appSecret === masterSecret)
      throw MarketplaceError.badRequest(
        'The app secret and the master secret must differ.',
      );
    const appKey = input.appKey ?? newAppKey();
    const collections = input.definition ? definitionOf(input.definition) : {};
    const inserted = await this.repository.insert(
      {
        appKey,
        name: input.name,
        environmentName: input.environmentName ?? 'Development',
        appSecretDigest: hashToken(appSecret),
        masterSecretDigest: hashToken(masterSecret),
        appCredentialAccess: input.appCredentialAccess ?? 'read-create',
        signingKey: randomBytes(32).toString('base64url'),
        createCollectionsOnWrite: input.createCollectionsOnWrite ?? false,
        createdAt: this.clock.now(),
      },
      tx,
      collections,
    );
    if (!inserted)
      throw MarketplaceError.duplicate(`The app key ${appKey} is taken.`);
    return { appKey, appSecret, masterSecret, name: input.name };
  }

  /** Whether writes to undeclared collections declare them. */
  async setCreateCollectionsOnWrite(
    appKey: string,
    on: boolean,
  ): Promise<void> {
    if (!(await this.repository.setCreateCollectionsOnWrite(appKey, on)))
      throw MarketplaceError.appNotFound(appKey);
    this.cache.delete(appKey);
  }

  /** Deletes the app and all its data (within `tx`). */
  async remove(appKey: string, tx: MarketplaceTx): Promise<void> {
    await this.repository.remove(appKey, tx);
    this.cache.delete(appKey);
  }

  async setEnvironmentName(appKey: string, name: string): Promise<void> {
    if (!(await this.repository.setEnvironmentName(appKey, name)))
      throw MarketplaceError.appNotFound(appKey);
    this.cache.delete(appKey);
  }

  list(): Promise<AppRecord[]> {
    return this.repository.list();
  }

  /** The app of a request path; 404 `AppNotFound` when unknown. */
  async get(appKey: string): Promise<AppRecord> {
    const now = Date.now();
    const cached = this.cache.get(appKey);
    if (cached && now - cached.at < CACHE_MS) return cached.app;
    const app = await this.repository.find(appKey);
    if (!app) throw MarketplaceError.appNotFound(appKey);
    this.cache.set(appKey, { app, at: now });
    return app;
  }
}
