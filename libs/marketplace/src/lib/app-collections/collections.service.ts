import { Inject, Injectable } from '@nestjs/common';
import { CLOCK } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import type { AppRecord } from '../apps/app.types';
import {
  DEFAULT_MAX_COLLECTIONS,
  DEFAULT_MAX_SCHEMA_BYTES,
  MARKETPLACE_OPTIONS,
} from '../common/marketplace.constants';
import { MarketplaceError } from '../common/marketplace.errors';
import type { MarketplaceModuleOptions } from '../common/marketplace.options';
import { PerAppCache } from '../common/per-app-cache';
import { MarketplaceDatabase } from '../persistence/marketplace-database';
import type { MarketplaceTx } from '../persistence/marketplace-database';
import {
  USER_COLLECTION,
  checkCollectionName,
  parseCollectionSettings,
} from '../collections/collection-settings';
import type {
  CollectionSettings,
  PermissionLevel,
} from '../collections/collection-settings';
import {
  checkCollection,
  compileCollection,
} from '../collections/compiled-collection';
import type { CompiledCollection } from '../collections/compiled-collection';
import { CollectionsRepository } from './collections.repository';
import { definitionOf } from '../collections/produce-definition';

/**
 * How long an app's collections are trusted before the database is asked
 * again: a change made on another replica applies there within this time
 * (on this one at once). Rules are recompiled only when they changed.
 */
const CACHE_MS = 5_000;

interface Compiled {
  readonly updatedAt: number;
  readonly collection: CompiledCollection;
}

interface AppCollections {
  readonly byName: ReadonlyMap<string, Compiled>;
}

/** A data call's collection; `undeclared` until its first write declares it. */
export interface ResolvedCollection extends CompiledCollection {
  readonly undeclared?: boolean;
}

export interface CollectionView {
  readonly name: string;
  readonly settings: CollectionSettings;
}

/** An app's declared collections: their administration and compiled rules. */
@Injectable()
export class CollectionsService {
  private readonly cache = new PerAppCache<AppCollections>(
    CACHE_MS,
    (appKey, cached) => this.reread(appKey, cached),
  );
  private readonly maxCollections: number;
  private readonly maxSchemaBytes: number;

  constructor(
    private readonly repository: CollectionsRepository,
    private readonly db: MarketplaceDatabase,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(MARKETPLACE_OPTIONS) options: MarketplaceModuleOptions,
  ) {
    this.maxCollections = options.maxCollections ?? DEFAULT_MAX_COLLECTIONS;
    this.maxSchemaBytes = options.maxSchemaBytes ?? DEFAULT_MAX_SCHEMA_BYTES;
  }

  private load(appKey: string): Promise<AppCollections> {
    return this.cache.get(appKey);
  }

  private async reread(
    appKey: string,
    cached: AppCollections | undefined,
  ): Promise<AppCollections> {
    const rows = await this.repository.list(appKey);
    const byName = new Map<string, Compiled>();
    for (const row of rows) {
      const updatedAt = row.updated_at.getTime();
      const known = cached?.byName.get(row.name);
      byName.set(
        row.name,
        known && known.updatedAt === updatedAt
          ? known
          : {
              updatedAt,
              collection: compileCollection(row.name, row.settings),
            },
      );
    }
    return { byName };
  }

  /**
   * Runs a change of the app's collections, one at a time per app (the
   * limit and unique keys hold under concurrent operators), then drops the
   * cached rules so this replica compiles the new ones.
   */
  private change<T>(
    appKey: string,
    work: (tx: MarketplaceTx) => Promise<T>,
  ): Promise<T> {
    return this.cache.changing(appKey, () =>
      this.db.serialized(`marketplace.collections:${appKey}`, work),
    );
  }

  /**
   * The collection a data call names. Undeclared: 404 CollectionNotFound,
   * unless the app creates collections on first write; then it has
   * default settings, and the first write allowed to store a record in it
   * declares it (`writing`): a read sees an empty collection.
   */
  async resolve(app: AppRecord, name: string): Promise<ResolvedCollection> {
    const found = (await this.load(app.appKey)).byName.get(name);
    if (found) return found.collection;
    if (!app.createCollectionsOnWrite)
      throw MarketplaceError.collectionNotFound(name);
    checkCollectionName(name);
    return { ...compileCollection(name, {}), undeclared: true };
  }

  /** The collection if the app declared it (no default, no error). */
  async find(
    appKey: string,
    name: string,
  ): Promise<CompiledCollection | undefined> {
    return (await this.load(appKey)).byName.get(name)?.collection;
  }

  /** The level users read each other at (`user`'s, else Kinvey's Shared). */
  async userLevel(appKey: string): Promise<PermissionLevel> {
    return (await this.find(appKey, USER_COLLECTION))?.permissions ?? 'shared';
  }

  /**
   * Runs a write that may store a record in `collection`. When the
   * collection is not declared yet, the write runs in the transaction
   * that declares it: both commit, or (the write refused or failed)
   * neither does, so refused writes never fill the app's quota.
   */
  async writing<T>(
    appKey: string,
    collection: ResolvedCollection,
    work: (tx?: MarketplaceTx) => Promise<T>,
  ): Promise<T> {
    if (!collection.undeclared) return work();
    return this.change(appKey, async (tx) => {
      await this.declareIn(appKey, collection.name, {}, tx);
      return work(tx);
    });
  }

  /** The collection, declared with default settings unless it is (the import). */
  async declared(appKey: string, name: string): Promise<CompiledCollection> {
    const found = (await this.load(appKey)).byName.get(name);
    if (found) return found.collection;
    checkCollectionName(name);
    await this.declare(appKey, name, {});
    return compileCollection(name, {});
  }

  async list(appKey: string): Promise<CollectionView[]> {
    const rows = await this.repository.list(appKey);
    return rows.map(({ name, settings }) => ({ name, settings }));
  }

  async show(appKey: string, name: string): Promise<CollectionView> {
    const found = (await this.repository.list(appKey)).find(
      (row) => row.name === name,
    );
    if (!found) throw MarketplaceError.collectionNotFound(name);
    return { name, settings: found.settings };
  }

  /** Checked settings whose schema compiles: nothing is stored otherwise. */
  private checked(name: string, value: unknown): CollectionSettings {
    const settings = parseCollectionSettings(name, value, this.maxSchemaBytes);
    checkCollection(name, settings);
    return settings;
  }

  private declare(
    appKey: string,
    name: string,
    settings: CollectionSettings,
  ): Promise<boolean> {
    return this.change(appKey, (tx) =>
      this.declareIn(appKey, name, settings, tx),
    );
  }

  /**
   * Declares a collection unless it exists, under `change`'s lock; whether
   * it was declared now. Past the app's limit, 400 (the whole transaction
   * rolls back); an existing one never counts against it.
   */
  private async declareIn(
    appKey: string,
    name: string,
    settings: CollectionSettings,
    tx: MarketplaceTx,
  ): Promise<boolean> {
    const declared = await this.repository.insert(
      appKey,
      name,
      settings,
      this.clock.now(),
      tx,
    );
    if (
      declared &&
      (await this.repository.count(appKey, tx)) > this.maxCollections
    )
      throw MarketplaceError.badRequest(
        `An app has at most ${this.maxCollections} collections.`,
        name,
      );
    return declared;
  }

  async create(
    appKey: string,
    name: unknown,
    value: unknown,
  ): Promise<CollectionView> {
    const checkedName = checkCollectionName(name);
    const settings = this.checked(checkedName, value);
    if (!(await this.declare(appKey, checkedName, settings)))
      throw MarketplaceError.duplicate(
        'A collection with this name already exists.',
        checkedName,
      );
    return { name: checkedName, settings };
  }

  async update(
    appKey: string,
    name: string,
    value: unknown,
  ): Promise<CollectionView> {
    const settings = this.checked(name, value);
    const updated = await this.change(appKey, (tx) =>
      this.repository.update(appKey, name, settings, this.clock.now(), tx),
    );
    if (!updated) throw MarketplaceError.collectionNotFound(name);
    return { name, settings };
  }

  /** Deletes the collection and every record of it; how many records. */
  async remove(appKey: string, name: string): Promise<number> {
    const removed = await this.change(appKey, (tx) =>
      this.repository.remove(appKey, name, tx),
    );
    if (removed === undefined) throw MarketplaceError.collectionNotFound(name);
    return removed;
  }

  /** Declares (or resets) the collections of a shipped definition. */
  async applyDefinition(appKey: string, definition: string): Promise<string[]> {
    const collections = definitionOf(definition);
    await this.change(appKey, async (tx) => {
      for (const [name, settings] of Object.entries(collections))
        await this.repository.upsert(
          appKey,
          name,
          settings,
          this.clock.now(),
          tx,
        );
    });
    return Object.keys(collections);
  }
}
