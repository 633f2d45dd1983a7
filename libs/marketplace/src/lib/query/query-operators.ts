/** Operators MongoDB knows that this service does not evaluate. */
export const GEO_OPERATORS = new Set([
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
export const UNAVAILABLE_OPERATORS = new Set([
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
