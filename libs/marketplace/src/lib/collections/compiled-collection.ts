import Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, ValidateFunction } from 'ajv';

import { isPlainObject } from '../kinvey/kinvey-doc';
import type { KinveyDoc } from '../kinvey/kinvey-doc';
import { MarketplaceError } from '../common/marketplace.errors';
import type {
  CollectionSettings,
  PermissionLevel,
  Reference,
  UniqueField,
} from './collection-settings';
import { inPlaceLoop } from './schema-loops';

/** Written by the server on every record, always as strings. */
const SERVER_TEXT_FIELDS = ['_acl.creator', '_kmd.ect', '_kmd.lmt'];

/** A unique field's folded value in a record (null: the record has none). */
export interface UniqueValue {
  readonly field: string;
  readonly value: string | null;
}

/**
 * What a record stores to keep its unique fields unique: the first
 * field's folded value in its own indexed column (the produce app's
 * product names, one write), the others' in `record_unique_values`.
 */
export interface UniqueKeys {
  /** The first unique field's folded value, or null. */
  readonly uniqueName: string | null;
  /** The first unique field, named by a duplicate's error. */
  readonly uniqueField?: string;
  /**
   * Every other unique field's value, null where the record has none;
   * undefined when the collection has no other unique field.
   */
  readonly uniqueValues?: readonly UniqueValue[];
}

/** A collection's settings turned into what each request runs. */
export interface CompiledCollection {
  readonly name: string;
  readonly settings: CollectionSettings;
  readonly permissions: PermissionLevel;
  readonly deltaSet: boolean;
  /**
   * Fields the schema makes strings (and the server's own): the query
   * compiler serves conditions and sorts on them from B-tree indexes.
   */
  readonly textFields: ReadonlySet<string>;
  readonly unique: readonly UniqueField[];
  readonly references: readonly Reference[];
  /** Checks a record and coerces its scalars in place; throws otherwise. */
  validate(doc: KinveyDoc): void;
  /** The first unique field's folded value, or null. */
  uniqueKey(doc: KinveyDoc): string | null;
  /** Every unique field's folded value, as the record stores them. */
  uniqueKeys(doc: KinveyDoc): UniqueKeys;
}

/** The value at a dotted path of a document. */
export function valueAt(doc: KinveyDoc, path: string): unknown {
  let value: unknown = doc;
  for (const part of path.split('.')) {
    if (!isPlainObject(value)) return undefined;
    value = value[part];
  }
  return value;
}

/** `/products/0/quantity` as `products[0].quantity`. */
function fieldName(instancePath: string, extra?: string): string {
  const parts = instancePath.split('/').slice(1);
  if (extra !== undefined) parts.push(extra);
  return parts
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce(
      (path, part) =>
        /^\d+$/.test(part)
          ? `${path}[${part}]`
          : path
            ? `${path}.${part}`
            : part,
      '',
    );
}

function describe(error: ErrorObject): string {
  if (error.keyword === 'required')
    return `${fieldName(error.instancePath, String(error.params['missingProperty']))} is required`;
  const field = fieldName(error.instancePath) || 'the record';
  if (error.keyword === 'enum') {
    const allowed = (error.params['allowedValues'] as unknown[]).map(String);
    const last = allowed.pop();
    return `${field} must be ${allowed.length ? `${allowed.join(', ')} or ${last}` : last}`;
  }
  return `${field} ${error.message ?? 'is invalid'}`;
}

function throwFailures(errors: readonly ErrorObject[]): never {
  const missing = errors.filter((e) => e.keyword === 'required');
  const debug = [...new Set(errors.map(describe))].join('; ');
  throw missing.length > 0
    ? MarketplaceError.incompleteBody(
        'The request body is missing required fields.',
        debug,
      )
    : MarketplaceError.badRequest(
        'The request body has invalid values.',
        debug,
      );
}

/** Compiles a JSON Schema (draft 2020-12, scalars coerced); a settings error otherwise. */
function compileSchema(
  schema: Record<string, unknown>,
): ValidateFunction | undefined {
  // One instance per schema: schemas of different apps may share `$id`s.
  const ajv = new Ajv2020({
    allErrors: true,
    coerceTypes: true,
    strict: false,
  });
  try {
    return ajv.compile(schema);
  } catch (error) {
    throw invalidSchema((error as Error).message);
  }
}

function invalidSchema(debug: string): MarketplaceError {
  return MarketplaceError.badRequest(
    'The collection settings are invalid.',
    `schema: ${debug}`,
  );
}

function textFieldsOf(
  schema: Record<string, unknown> | undefined,
): Set<string> {
  const fields = new Set(SERVER_TEXT_FIELDS);
  const properties = schema?.['properties'];
  if (!isPlainObject(properties)) return fields;
  for (const [field, rule] of Object.entries(properties))
    if (isPlainObject(rule) && rule['type'] === 'string') fields.add(field);
  return fields;
}

function fold(value: unknown, unique: UniqueField): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') return JSON.stringify(value);
  let folded = value;
  if (unique.fold?.includes('trim')) folded = folded.trim();
  if (unique.fold?.includes('case')) folded = folded.toLowerCase();
  return folded;
}

/**
 * Runs a schema's validator. One stored before schemas were checked for
 * loops (`checkCollection`) overflows the stack: the writer gets a 400
 * saying so rather than a 500, and nothing is written.
 */
function runCheck(check: ValidateFunction, doc: KinveyDoc): boolean {
  try {
    return check(doc);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw MarketplaceError.badRequest(
      "The collection's schema cannot validate records; the operator must replace it.",
      'schema: loops without reaching into the record',
    );
  }
}

/**
 * `compileCollection` for settings being set: also refuses a schema that
 * compiles but could never validate a record, as it loops on itself.
 */
export function checkCollection(
  name: string,
  settings: CollectionSettings,
): CompiledCollection {
  const compiled = compileCollection(name, settings);
  // Ajv compiles a loop of references; validating with it never ends.
  const loop = settings.schema && inPlaceLoop(settings.schema);
  if (loop)
    throw invalidSchema(
      `${loop} loops without reaching into the record, so no record could be validated`,
    );
  return compiled;
}

/** Compiles settings once (per change), never per request. */
export function compileCollection(
  name: string,
  settings: CollectionSettings,
): CompiledCollection {
  const check = settings.schema ? compileSchema(settings.schema) : undefined;
  const unique = settings.unique ?? [];
  const [first, ...others] = unique;
  const uniqueKey = (doc: KinveyDoc): string | null =>
    first ? fold(valueAt(doc, first.field), first) : null;
  return {
    name,
    settings,
    permissions: settings.permissions ?? 'shared',
    deltaSet: settings.deltaSet ?? false,
    textFields: textFieldsOf(settings.schema),
    unique,
    references: settings.references ?? [],
    validate(doc) {
      if (check && !runCheck(check, doc)) throwFailures(check.errors ?? []);
    },
    uniqueKey,
    uniqueKeys(doc) {
      const keys = { uniqueName: uniqueKey(doc), uniqueField: first?.field };
      if (others.length === 0) return keys;
      const uniqueValues = others.map((other) => ({
        field: other.field,
        value: fold(valueAt(doc, other.field), other),
      }));
      return { ...keys, uniqueValues };
    },
  };
}
