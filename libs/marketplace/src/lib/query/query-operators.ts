import { isPlainObject } from '../kinvey/kinvey-doc';
import { MarketplaceError } from '../common/marketplace.errors';

/** Operators MongoDB knows that this service does not evaluate. */
const GEO_OPERATORS = new Set([
  '$near',
  '$nearSphere',
  '$geoWithin',
  '$geoIntersects',
  '$within',
  '$box',
  '$polygon',
  '$center',
  '$centerSphere',
  '$geometry',
  '$maxDistance',
  '$minDistance',
]);

/** Valid MongoDB, refused: client code, text indexes, other evaluators. */
const UNAVAILABLE_OPERATORS = new Set([
  '$where',
  '$expr',
  '$text',
  '$jsonSchema',
  '$type',
  '$comment',
  '$bitsAllSet',
  '$bitsAnySet',
  '$bitsAllClear',
  '$bitsAnyClear',
  '$sampleRate',
]);

export const LOGICAL_OPERATORS = new Set(['$and', '$or', '$nor']);

/** Nesting and size limits: a query is a request, not a program. */
export const MAX_DEPTH = 20;
export const MAX_CONDITIONS = 500;

export function conjunction(parts: string[]): string {
  if (parts.length === 0) return 'TRUE';
  if (parts.length === 1) return parts[0] ?? 'TRUE';
  return parts.map((p) => `(${p})`).join(' AND ');
}

/** `{ $gt: 1 }` rather than a literal object to compare with. */
export function isOperatorObject(
  value: unknown,
): value is Record<string, unknown> {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  if (!keys.some((k) => k.startsWith('$'))) return false;
  if (!keys.every((k) => k.startsWith('$'))) {
    throw MarketplaceError.invalidQuery(
      'Operators and fields cannot be mixed in one object',
    );
  }
  return true;
}

export function unknownOperator(op: string): Error {
  if (GEO_OPERATORS.has(op)) {
    return MarketplaceError.featureUnavailable(
      `Geo queries (${op}) are not supported`,
    );
  }
  if (UNAVAILABLE_OPERATORS.has(op)) {
    return MarketplaceError.featureUnavailable(`${op} is not supported`);
  }
  return MarketplaceError.invalidQuery(`Unknown operator ${op}`);
}
