import { ErrorTrackingError } from '../common/error-tracking.errors';

/** A numeric id from the path; anything else is a 404 of that resource. */
export function parseId(value: string, resource?: string): number {
  if (!/^\d{1,10}$/.test(value)) throw ErrorTrackingError.notFound(resource);
  const id = Number(value);
  if (id > 2_147_483_647) throw ErrorTrackingError.notFound(resource);
  return id;
}

/** A bigint id from the path (errors), kept as text. */
export function parseBigId(value: string, resource?: string): string {
  if (!/^\d{1,18}$/.test(value)) throw ErrorTrackingError.notFound(resource);
  return String(BigInt(value));
}
