/**
 * An event as JSON, the way every part that reads Sentry payloads sees it
 * (the collector, source-map resolution, the stack trace and issue text of
 * the errors API). Depends on nothing.
 */

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The exceptions of an event, in any of the shapes SDKs send them. */
export function exceptionList(value: unknown): JsonObject[] {
  if (Array.isArray(value)) return value.filter(isJsonObject);
  if (isJsonObject(value)) {
    if (Array.isArray(value['values']))
      return value['values'].filter(isJsonObject);
    if ('type' in value || 'value' in value) return [value];
  }
  return [];
}
