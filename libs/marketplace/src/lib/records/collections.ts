import { MarketplaceError } from '../marketplace.errors';
import { isPlainObject } from '../kinvey/kinvey-doc';
import type { KinveyDoc } from '../kinvey/kinvey-doc';

export const COLLECTIONS = [
  'product',
  'assortment',
  'availableAssortment',
  'requiredAssortment',
] as const;
export type CollectionName = (typeof COLLECTIONS)[number];

const MEASUREMENTS = new Set(['un', 'kg']);
const NUMERIC = /^\s*\d+(?:[.,]\d+)?\s*$/;

export function collectionOf(name: string): CollectionName {
  if ((COLLECTIONS as readonly string[]).includes(name))
    return name as CollectionName;
  throw MarketplaceError.collectionNotFound(name);
}

/** Written by the server on every record, always as strings. */
const SERVER_TEXT_FIELDS = ['_acl.creator', '_kmd.ect', '_kmd.lmt'];

/**
 * Fields every record of the collection holds as a string when present:
 * what `validateRecord` requires of them, and what the server writes. The
 * query compiler serves conditions and sorts on them from B-tree indexes
 * (migration `RecordsTextFieldIndexes`); a rule loosened here must drop
 * its field from this list.
 */
const TEXT_FIELDS: Readonly<Record<CollectionName, ReadonlySet<string>>> = {
  product: new Set([...SERVER_TEXT_FIELDS, 'name', 'measurement']),
  assortment: new Set([...SERVER_TEXT_FIELDS, 'id_producer', 'canceled']),
  availableAssortment: new Set([
    ...SERVER_TEXT_FIELDS,
    'id_producer',
    'canceled',
  ]),
  requiredAssortment: new Set([
    ...SERVER_TEXT_FIELDS,
    'id_producer',
    'canceled',
  ]),
};

export function textFieldsOf(collection: CollectionName): ReadonlySet<string> {
  return TEXT_FIELDS[collection];
}

/** `lower(btrim(name))`: what product names are unique by. */
export function uniqueNameOf(
  collection: CollectionName,
  doc: KinveyDoc,
): string | null {
  if (collection !== 'product' || typeof doc['name'] !== 'string') return null;
  return doc['name'].trim().toLowerCase();
}

class Problems {
  readonly missing: string[] = [];
  readonly bad: string[] = [];

  throwIfAny(): void {
    if (this.missing.length > 0)
      throw MarketplaceError.incompleteBody(
        'The request body is missing required fields.',
        [...this.missing.map((f) => `${f} is required`), ...this.bad].join(
          '; ',
        ),
      );
    if (this.bad.length > 0)
      throw MarketplaceError.badRequest(
        'The request body has invalid values.',
        this.bad.join('; '),
      );
  }
}

function absent(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/** Numeric text stays as sent; a JSON number becomes its text. */
function numericText(
  item: Record<string, unknown>,
  field: string,
  path: string,
  problems: Problems,
  required: boolean,
): void {
  const value = item[field];
  if (absent(value)) {
    if (required) problems.missing.push(`${path}.${field}`);
    return;
  }
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) {
    item[field] = String(value);
    return;
  }
  if (typeof value !== 'string' || !NUMERIC.test(value))
    problems.bad.push(`${path}.${field} must be a non-negative number as text`);
}

function measurement(
  holder: Record<string, unknown>,
  path: string,
  problems: Problems,
): void {
  const value = holder['measurement'];
  if (absent(value))
    problems.missing.push(path ? `${path}.measurement` : 'measurement');
  else if (typeof value !== 'string' || !MEASUREMENTS.has(value))
    problems.bad.push(`${path ? `${path}.` : ''}measurement must be un or kg`);
}

function items(
  doc: KinveyDoc,
  field: string,
  priced: boolean,
  problems: Problems,
): void {
  const list = doc[field];
  if (list === undefined || list === null) return;
  if (!Array.isArray(list)) {
    problems.bad.push(`${field} must be an array`);
    return;
  }
  list.forEach((item: unknown, index) => {
    const path = `${field}[${index}]`;
    if (!isPlainObject(item)) {
      problems.bad.push(`${path} must be an object`);
      return;
    }
    if (absent(item['name'])) problems.missing.push(`${path}.name`);
    else if (typeof item['name'] !== 'string')
      problems.bad.push(`${path}.name must be text`);
    measurement(item, path, problems);
    numericText(item, 'quantity', path, problems, true);
    if (priced) numericText(item, 'price', path, problems, true);
    if (
      item['image'] !== undefined &&
      item['image'] !== null &&
      !isPlainObject(item['image'])
    )
      problems.bad.push(`${path}.image must be an object`);
  });
}

/**
 * Checks and normalises a record of a collection in place (numbers sent for
 * text fields become text, a boolean `canceled` becomes "true"/"false").
 * Returns `id_producer` when the collection has one, to check it is a user.
 */
export function validateRecord(
  collection: CollectionName,
  doc: KinveyDoc,
): string | undefined {
  const problems = new Problems();
  if (collection === 'product') {
    if (absent(doc['name'])) problems.missing.push('name');
    else if (typeof doc['name'] !== 'string' || !doc['name'].trim())
      problems.bad.push('name must be non-empty text');
    measurement(doc, '', problems);
    problems.throwIfAny();
    return undefined;
  }
  const producer = doc['id_producer'];
  if (absent(producer)) problems.missing.push('id_producer');
  else if (typeof producer !== 'string')
    problems.bad.push('id_producer must be a user id');
  const canceled = doc['canceled'];
  if (typeof canceled === 'boolean') doc['canceled'] = String(canceled);
  else if (
    canceled !== undefined &&
    canceled !== 'true' &&
    canceled !== 'false'
  )
    problems.bad.push('canceled must be "true" or "false"');
  if (collection === 'assortment') {
    items(doc, 'available', true, problems);
    items(doc, 'required', false, problems);
  } else {
    items(doc, 'products', collection === 'availableAssortment', problems);
  }
  problems.throwIfAny();
  return producer as string;
}
