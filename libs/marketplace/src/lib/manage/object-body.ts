import { MarketplaceError } from '../common/marketplace.errors';
import { isPlainObject } from '../kinvey/kinvey-doc';

/** A management call's JSON body, which is always an object. */
export function objectBody(body: unknown): Record<string, unknown> {
  if (!isPlainObject(body)) throw MarketplaceError.notAnObject();
  return body;
}
