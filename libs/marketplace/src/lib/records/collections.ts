import { compileCollection } from '../collections/compiled-collection';
import type { CompiledCollection } from '../collections/compiled-collection';
import { PRODUCE_DEFINITION } from '../collections/produce-definition';
import type { KinveyDoc } from '../kinvey/kinvey-doc';
import { MarketplaceError } from '../common/marketplace.errors';

/**
 * The produce app's collections, compiled from its shipped definition: the
 * rules specs and benchmarks name directly. Requests use the collections
 * each app declared (`CollectionsService`).
 */
export const COLLECTIONS = [
  'product',
  'assortment',
  'availableAssortment',
  'requiredAssortment',
] as const;
export type CollectionName = (typeof COLLECTIONS)[number];

const COMPILED = new Map<string, CompiledCollection>(
  COLLECTIONS.map((name) => [
    name,
    compileCollection(name, PRODUCE_DEFINITION[name] ?? {}),
  ]),
);

function compiled(name: string): CompiledCollection {
  const found = COMPILED.get(name);
  if (!found) throw MarketplaceError.collectionNotFound(name);
  return found;
}

export function collectionOf(name: string): CollectionName {
  compiled(name);
  return name as CollectionName;
}

export function textFieldsOf(collection: CollectionName): ReadonlySet<string> {
  return compiled(collection).textFields;
}

/** `lower(btrim(name))`: what product names are unique by. */
export function uniqueNameOf(
  collection: CollectionName,
  doc: KinveyDoc,
): string | null {
  return compiled(collection).uniqueKey(doc);
}

/**
 * Checks and normalises a record in place; returns its `id_producer` when
 * the collection has one.
 */
export function validateRecord(
  collection: CollectionName,
  doc: KinveyDoc,
): string | undefined {
  const rules = compiled(collection);
  rules.validate(doc);
  const producer = rules.references[0];
  return producer ? (doc[producer.field] as string) : undefined;
}
