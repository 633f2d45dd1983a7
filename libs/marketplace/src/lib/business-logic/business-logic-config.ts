import { createHmac, randomBytes } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, SecretSealer, constantTimeEqual } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { checkCollectionName } from '../collections/collection-settings';
import { MARKETPLACE_OPTIONS } from '../common/marketplace.constants';
import { MarketplaceError } from '../common/marketplace.errors';
import type { MarketplaceModuleOptions } from '../common/marketplace.options';
import { PerAppCache } from '../common/per-app-cache';
import { MarketplaceDatabase } from '../persistence/marketplace-database';
import { USER_COLLECTION } from '../records/data-call-logic';
import type { MarketplaceTx } from '../persistence/marketplace-database';
import { BusinessLogicRepository } from './business-logic.repository';
import type { BindingKind, BindingRow } from './business-logic.repository';
import { COLLECTION_HOOKS } from './business-logic.types';
import type {
  BusinessLogicView,
  CollectionHook,
  FlexService,
  FlexServiceInput,
  FlexTarget,
} from './business-logic.types';

const SEAL_PURPOSE = 'quitanda:flex-service-secret';
/** Changes made on another replica are seen within this time. */
const CACHE_MS = 5_000;
export const MAX_FLEX_SERVICES = 10;
export const MAX_BINDINGS = 500;
export const DEFAULT_TIMEOUT_MS = 2_000;
const MIN_TIMEOUT_MS = 100;
export const MAX_TIMEOUT_MS = 30_000;
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;
const MAX_URL_LENGTH = 2048;
const MIN_SECRET_LENGTH = 16;
const MAX_SECRET_LENGTH = 256;

/** An app's business logic as the request path reads it (secrets opened). */
export interface BusinessLogicSnapshot {
  readonly services: ReadonlyMap<string, FlexService>;
  readonly endpoints: ReadonlyMap<string, FlexTarget>;
  readonly hooks: ReadonlyMap<string, ReadonlyMap<CollectionHook, FlexTarget>>;
  readonly dataCollections: ReadonlyMap<string, FlexTarget>;
}

const EMPTY: BusinessLogicSnapshot = {
  services: new Map(),
  endpoints: new Map(),
  hooks: new Map(),
  dataCollections: new Map(),
};

function nameOf(value: unknown, what: string): string {
  if (typeof value !== 'string' || !NAME.test(value))
    throw MarketplaceError.badRequest(
      `A ${what} has 1 to 128 letters, digits, _, . or -, starting with a letter or digit.`,
      `${what}=${String(value).slice(0, 200)}`,
    );
  return value;
}

function urlOf(value: unknown): string {
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (
    !url ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.username ||
    url.password ||
    url.search ||
    url.hash ||
    String(value).length > MAX_URL_LENGTH
  )
    throw MarketplaceError.badRequest(
      'A Flex service URL is an absolute http(s) URL without credentials, query or fragment.',
      'url',
    );
  return url.href.replace(/\/+$/, '');
}

function sharedSecretOf(value: unknown): string {
  if (
    typeof value !== 'string' ||
    value.length < MIN_SECRET_LENGTH ||
    value.length > MAX_SECRET_LENGTH
  )
    throw MarketplaceError.badRequest(
      `A Flex service's shared secret has ${MIN_SECRET_LENGTH} to ${MAX_SECRET_LENGTH} characters.`,
      'secret',
    );
  return value;
}

function timeoutOf(value: unknown): number {
  if (value === undefined) return DEFAULT_TIMEOUT_MS;
  if (
    typeof value !== 'number' ||
    !Number.isInteger(value) ||
    value < MIN_TIMEOUT_MS ||
    value > MAX_TIMEOUT_MS
  )
    throw MarketplaceError.badRequest(
      `A Flex service's timeout is a whole number of milliseconds from ${MIN_TIMEOUT_MS} to ${MAX_TIMEOUT_MS}.`,
      'timeoutMs',
    );
  return value;
}

function hookOf(value: unknown): CollectionHook {
  if (!COLLECTION_HOOKS.includes(value as CollectionHook))
    throw MarketplaceError.badRequest(
      `A collection hook is one of ${COLLECTION_HOOKS.join(', ')}.`,
      `hook=${String(value).slice(0, 100)}`,
    );
  return value as CollectionHook;
}

/** The call-back secrets a service gets, derived from its sealed key. */
function callbackSecret(key: string, kind: 'master' | 'app'): string {
  return createHmac('sha256', key)
    .update(`flex-callback:${kind}`)
    .digest('hex');
}

/**
 * The one place an app's business logic is read and changed: Flex services
 * (URL, shared secret, timeout), custom endpoint -> function, collection
 * hook -> function, FlexData collection -> service object. The admin API
 * and the CLI call it; the request path reads a per-app snapshot, cached
 * and dropped on every change (other replicas: within CACHE_MS).
 */
@Injectable()
export class BusinessLogicConfig {
  private readonly cache = new PerAppCache<BusinessLogicSnapshot>(
    CACHE_MS,
    (appKey) => this.reread(appKey),
  );
  private readonly sealer?: SecretSealer;

  constructor(
    private readonly repository: BusinessLogicRepository,
    private readonly db: MarketplaceDatabase,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(MARKETPLACE_OPTIONS) options: MarketplaceModuleOptions,
  ) {
    if (options.mfaEncryptionKey)
      this.sealer = new SecretSealer(options.mfaEncryptionKey, SEAL_PURPOSE);
  }

  private requireSealer(): SecretSealer {
    if (!this.sealer)
      throw MarketplaceError.featureUnavailable(
        'MARKETPLACE_MFA_ENCRYPTION_KEY is not set',
        'Flex services need MARKETPLACE_MFA_ENCRYPTION_KEY, which seals their secrets.',
      );
    return this.sealer;
  }

  private open(sealed: string): string {
    try {
      return this.requireSealer().open(sealed);
    } catch (error) {
      if (error instanceof MarketplaceError) throw error;
      throw MarketplaceError.featureUnavailable(
        'MARKETPLACE_MFA_ENCRYPTION_KEY is not the key the Flex services were sealed with',
        'Register the Flex services again with their shared secrets.',
      );
    }
  }

  /** The app's business logic for a request: one map lookup when cached. */
  snapshot(appKey: string): Promise<BusinessLogicSnapshot> {
    return this.cache.get(appKey);
  }

  private async reread(appKey: string): Promise<BusinessLogicSnapshot> {
    const [services, bindings] = await Promise.all([
      this.repository.services(appKey),
      this.repository.bindings(appKey),
    ]);
    return services.length === 0 ? EMPTY : this.compile(services, bindings);
  }

  private compile(
    rows: Awaited<ReturnType<BusinessLogicRepository['services']>>,
    bindings: readonly BindingRow[],
  ): BusinessLogicSnapshot {
    const services = new Map<string, FlexService>();
    for (const row of rows) {
      const key = this.open(row.sealed_callback_key);
      services.set(row.name, {
        name: row.name,
        url: row.url,
        timeoutMs: row.timeout_ms,
        sharedSecret: this.open(row.sealed_secret),
        callbackMasterSecret: callbackSecret(key, 'master'),
        callbackAppSecret: callbackSecret(key, 'app'),
      });
    }
    const endpoints = new Map<string, FlexTarget>();
    const hooks = new Map<string, Map<CollectionHook, FlexTarget>>();
    const dataCollections = new Map<string, FlexTarget>();
    for (const row of bindings) {
      const target = { service: row.service, handler: row.handler };
      if (row.kind === 'endpoint') endpoints.set(row.target, target);
      else if (row.kind === 'data') dataCollections.set(row.target, target);
      else {
        const byHook = hooks.get(row.target) ?? new Map();
        byHook.set(row.hook as CollectionHook, target);
        hooks.set(row.target, byHook);
      }
    }
    return { services, endpoints, hooks, dataCollections };
  }

  /**
   * Which of the app's secrets a Flex service called back with, if the
   * candidate is one a service was handed (constant-time comparisons).
   */
  async callbackKind(
    appKey: string,
    candidate: string,
  ): Promise<{ kind: 'master' | 'app'; service: string } | undefined> {
    const { services } = await this.snapshot(appKey);
    let found: { kind: 'master' | 'app'; service: string } | undefined;
    for (const service of services.values()) {
      const master = constantTimeEqual(candidate, service.callbackMasterSecret);
      const app = constantTimeEqual(candidate, service.callbackAppSecret);
      if (master) found = { kind: 'master', service: service.name };
      else if (app) found = { kind: 'app', service: service.name };
    }
    return found;
  }

  /** Runs a change, one at a time per app, then drops the cached snapshot. */
  private change<T>(
    appKey: string,
    work: (tx: MarketplaceTx) => Promise<T>,
  ): Promise<T> {
    return this.cache.changing(appKey, () =>
      this.db.serialized(`marketplace.business_logic:${appKey}`, work),
    );
  }

  /** Everything of the app's business logic, secrets left out. */
  async view(appKey: string): Promise<BusinessLogicView> {
    const [services, bindings] = await Promise.all([
      this.repository.services(appKey),
      this.repository.bindings(appKey),
    ]);
    const endpoints: Record<string, FlexTarget> = {};
    const hooks: Record<
      string,
      Partial<Record<CollectionHook, FlexTarget>>
    > = {};
    const dataCollections: Record<string, FlexTarget> = {};
    for (const row of bindings) {
      const target = { service: row.service, handler: row.handler };
      if (row.kind === 'endpoint') endpoints[row.target] = target;
      else if (row.kind === 'data') dataCollections[row.target] = target;
      else
        hooks[row.target] = {
          ...hooks[row.target],
          [row.hook]: target,
        };
    }
    return {
      services: services.map((row) => ({
        name: row.name,
        url: row.url,
        timeoutMs: row.timeout_ms,
      })),
      endpoints,
      hooks,
      dataCollections,
    };
  }

  /** Registers a service, or changes its URL, secret and timeout. */
  async setService(appKey: string, input: FlexServiceInput): Promise<void> {
    const name = nameOf(input.name, 'service name');
    const url = urlOf(input.url);
    const secret = sharedSecretOf(input.sharedSecret);
    const timeoutMs = timeoutOf(input.timeoutMs);
    const sealer = this.requireSealer();
    await this.change(appKey, async (tx) => {
      const existing = await this.repository.services(appKey, tx);
      const known = existing.find((row) => row.name === name);
      if (!known && existing.length >= MAX_FLEX_SERVICES)
        throw MarketplaceError.badRequest(
          `An app has at most ${MAX_FLEX_SERVICES} Flex services.`,
          `services=${existing.length}`,
        );
      await this.repository.upsertService(
        appKey,
        {
          name,
          url,
          timeout_ms: timeoutMs,
          sealed_secret: sealer.seal(secret),
          // Kept across changes: the running service keeps calling back.
          sealed_callback_key:
            known?.sealed_callback_key ??
            sealer.seal(randomBytes(32).toString('hex')),
        },
        this.clock.now(),
        tx,
      );
    });
  }

  /**
   * Moves the service `name` of every app that has it to a new URL and
   * secret, each keeping its timeout and bindings (one service registered
   * once and used by several apps: the management API's).
   */
  async moveService(
    name: string,
    input: Pick<FlexServiceInput, 'url' | 'sharedSecret'>,
  ): Promise<void> {
    for (const appKey of await this.repository.appsWithService(name)) {
      const current = (await this.view(appKey)).services.find(
        (service) => service.name === name,
      );
      if (current)
        await this.setService(appKey, {
          ...input,
          name,
          timeoutMs: current.timeoutMs,
        });
    }
  }

  /** Removes a service and what was bound to it. */
  async removeService(appKey: string, name: string): Promise<void> {
    const removed = await this.change(appKey, (tx) =>
      this.repository.deleteService(appKey, name, tx),
    );
    if (!removed) throw serviceNotFound(name);
  }

  /** The service a caller names, opened (health checks). */
  async service(appKey: string, name: string): Promise<FlexService> {
    const found = (await this.snapshot(appKey)).services.get(name);
    if (!found) throw serviceNotFound(name);
    return found;
  }

  private async bind(appKey: string, binding: BindingRow): Promise<void> {
    const service = nameOf(binding.service, 'service name');
    const handler = nameOf(binding.handler, 'function name');
    await this.change(appKey, async (tx) => {
      const services = await this.repository.services(appKey, tx);
      if (!services.some((row) => row.name === service))
        throw serviceNotFound(service);
      if ((await this.repository.countBindings(appKey, tx)) >= MAX_BINDINGS)
        throw MarketplaceError.badRequest(
          `An app binds at most ${MAX_BINDINGS} endpoints, hooks and FlexData collections.`,
          'bindings',
        );
      await this.repository.upsertBinding(
        appKey,
        { ...binding, service, handler },
        tx,
      );
    });
  }

  private async unbind(
    appKey: string,
    kind: BindingKind,
    target: string,
    hook = '',
  ): Promise<void> {
    const removed = await this.change(appKey, (tx) =>
      this.repository.deleteBinding(appKey, kind, target, hook, tx),
    );
    if (!removed)
      throw MarketplaceError.entityNotFound(
        hook ? `${target}.${hook}` : target,
      );
  }

  /** Custom endpoint `name` runs the service's function. */
  async setEndpoint(
    appKey: string,
    name: string,
    target: FlexTarget,
  ): Promise<void> {
    await this.bind(appKey, {
      kind: 'endpoint',
      target: nameOf(name, 'endpoint name'),
      hook: '',
      ...target,
    });
  }

  async removeEndpoint(appKey: string, name: string): Promise<void> {
    await this.unbind(appKey, 'endpoint', name);
  }

  /** The collection's hook runs the service's function. */
  async setHook(
    appKey: string,
    collection: string,
    hook: string,
    target: FlexTarget,
  ): Promise<void> {
    await this.bind(appKey, {
      kind: 'hook',
      target: checkCollectionName(collection),
      hook: hookOf(hook),
      ...target,
    });
  }

  async removeHook(
    appKey: string,
    collection: string,
    hook: string,
  ): Promise<void> {
    await this.unbind(appKey, 'hook', collection, hookOf(hook));
  }

  /** The collection is served by the service's object (FlexData). */
  async setDataCollection(
    appKey: string,
    collection: string,
    target: FlexTarget,
  ): Promise<void> {
    if (collection === USER_COLLECTION)
      throw MarketplaceError.badRequest(
        'The user collection cannot be a FlexData collection: its hooks can be bound.',
        'collection',
      );
    await this.bind(appKey, {
      kind: 'data',
      target: checkCollectionName(collection),
      hook: '',
      ...target,
    });
  }

  async removeDataCollection(
    appKey: string,
    collection: string,
  ): Promise<void> {
    await this.unbind(appKey, 'data', collection);
  }
}

function serviceNotFound(name: string): MarketplaceError {
  return MarketplaceError.entityNotFound(`Flex service ${name.slice(0, 128)}`);
}
