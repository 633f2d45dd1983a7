import { isPlainObject } from '../kinvey/kinvey-doc';
import { MarketplaceError } from '../common/marketplace.errors';

/** Kinvey's collection permission levels. */
export const PERMISSION_LEVELS = [
  'shared',
  'private',
  'read-only',
  'full',
] as const;
export type PermissionLevel = (typeof PERMISSION_LEVELS)[number];

export type Fold = 'case' | 'trim';

export interface UniqueField {
  readonly field: string;
  readonly fold?: readonly Fold[];
}

export type Reference =
  | {
      readonly field: string;
      readonly to: 'user';
      readonly callerWhenUser?: boolean;
    }
  | {
      readonly field: string;
      readonly to: 'collection';
      readonly collection: string;
    };

/** What an operator declares about a collection; every part optional. */
export interface CollectionSettings {
  readonly permissions?: PermissionLevel;
  readonly schema?: Record<string, unknown>;
  readonly unique?: readonly UniqueField[];
  readonly references?: readonly Reference[];
  readonly deltaSet?: boolean;
}

/**
 * Kinvey's user collection: declared like any other, its settings only
 * set the level users read each other at (`/user` calls); Kinvey's
 * "Shared" while it is not declared.
 */
export const USER_COLLECTION = 'user';
const USER_LEVELS: readonly PermissionLevel[] = ['shared', 'private'];

/** Kinvey's collection names: letters, digits, `_`, `-`, not led by `_`. */
const COLLECTION_NAME = /^[A-Za-z0-9-][A-Za-z0-9_-]{0,254}$/;
/** Dotted paths of plain field names. */
const FIELD_PATH = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;
/**
 * Each unique field beyond the first costs every write of the collection
 * one more index entry (and a settings change one more pass over it).
 */
export const MAX_UNIQUE_FIELDS = 8;
const SETTING_KEYS = new Set([
  'permissions',
  'schema',
  'unique',
  'references',
  'deltaSet',
]);

function invalid(debug: string): never {
  throw MarketplaceError.badRequest(
    'The collection settings are invalid.',
    debug,
  );
}

export function checkCollectionName(name: unknown): string {
  if (typeof name !== 'string' || !COLLECTION_NAME.test(name))
    throw MarketplaceError.badRequest(
      'A collection name has 1 to 255 letters, digits, _ or -, and does not start with _.',
      `name=${String(name).slice(0, 300)}`,
    );
  return name;
}

function fieldOf(value: unknown, where: string): string {
  if (typeof value !== 'string' || !FIELD_PATH.test(value))
    invalid(`${where}.field must be a field name or dotted path`);
  if (value.startsWith('_'))
    invalid(`${where}.field may not be a server field`);
  return value;
}

function uniqueOf(value: unknown): UniqueField[] {
  if (!Array.isArray(value)) invalid('unique must be an array');
  if (value.length > MAX_UNIQUE_FIELDS)
    invalid(`unique: at most ${MAX_UNIQUE_FIELDS} fields per collection`);
  const seen = new Set<string>();
  return value.map((entry: unknown, index) => {
    const where = `unique[${index}]`;
    if (!isPlainObject(entry)) invalid(`${where} must be an object`);
    const fold = entry['fold'] ?? [];
    if (
      !Array.isArray(fold) ||
      fold.some((f: unknown) => f !== 'case' && f !== 'trim')
    )
      invalid(`${where}.fold must list "case" and/or "trim"`);
    const field = fieldOf(entry['field'], where);
    // One field, one fold: two folds of it would be two answers to "taken?".
    if (seen.has(field)) invalid(`${where}.field ${field} is listed twice`);
    seen.add(field);
    return { field, fold: fold as Fold[] };
  });
}

function referencesOf(value: unknown): Reference[] {
  if (!Array.isArray(value)) invalid('references must be an array');
  return value.map((entry: unknown, index) => {
    const where = `references[${index}]`;
    if (!isPlainObject(entry)) invalid(`${where} must be an object`);
    const field = fieldOf(entry['field'], where);
    if (entry['to'] === 'user') {
      const caller = entry['callerWhenUser'];
      if (caller !== undefined && typeof caller !== 'boolean')
        invalid(`${where}.callerWhenUser must be a boolean`);
      return { field, to: 'user', callerWhenUser: caller === true };
    }
    if (entry['to'] === 'collection') {
      const collection = entry['collection'];
      if (typeof collection !== 'string' || !COLLECTION_NAME.test(collection))
        invalid(`${where}.collection must be a collection name`);
      return { field, to: 'collection', collection };
    }
    return invalid(`${where}.to must be "user" or "collection"`);
  });
}

/**
 * The user collection takes a level only: users update themselves and
 * nobody else, so "read-only" and "full" have no meaning for them, and
 * their fields are the user API's.
 */
function checkUserCollection(settings: CollectionSettings): void {
  const others = Object.keys(settings).filter((key) => key !== 'permissions');
  if (others.length > 0)
    invalid(
      `the user collection takes only permissions, not ${others.join(', ')}`,
    );
  if (settings.permissions && !USER_LEVELS.includes(settings.permissions))
    invalid(
      `permissions of the user collection must be ${USER_LEVELS.join(' or ')}`,
    );
}

/**
 * The settings of collection `name` in `value`, checked (the schema
 * itself is compiled apart); a clear error naming the first problem
 * otherwise.
 */
export function parseCollectionSettings(
  name: string,
  value: unknown,
  maxSchemaBytes: number,
): CollectionSettings {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) invalid('settings must be a JSON object');
  for (const key of Object.keys(value))
    if (!SETTING_KEYS.has(key)) invalid(`unknown setting ${key}`);
  const settings: {
    -readonly [K in keyof CollectionSettings]: CollectionSettings[K];
  } = {};
  const { permissions, schema, unique, references, deltaSet } = value;
  if (permissions !== undefined) {
    if (!(PERMISSION_LEVELS as readonly unknown[]).includes(permissions))
      invalid(`permissions must be one of ${PERMISSION_LEVELS.join(', ')}`);
    settings.permissions = permissions as PermissionLevel;
  }
  if (schema !== undefined) {
    if (!isPlainObject(schema)) invalid('schema must be a JSON Schema object');
    const bytes = Buffer.byteLength(JSON.stringify(schema));
    if (bytes > maxSchemaBytes)
      invalid(`schema is ${bytes} bytes; at most ${maxSchemaBytes}`);
    settings.schema = schema;
  }
  if (unique !== undefined) settings.unique = uniqueOf(unique);
  // A clash (409) tells the writer that some record holds the value: in a
  // private collection, that is what other users may not learn.
  if (settings.permissions === 'private' && settings.unique?.length)
    invalid(
      'unique: a private collection may not have unique fields (a duplicate would reveal values of records the writer may not read)',
    );
  if (references !== undefined) settings.references = referencesOf(references);
  if (deltaSet !== undefined) {
    if (typeof deltaSet !== 'boolean') invalid('deltaSet must be a boolean');
    settings.deltaSet = deltaSet;
  }
  if (name === USER_COLLECTION) checkUserCollection(settings);
  return settings;
}
