import type {
  CollectionSettings,
  PermissionLevel,
} from '../collections/collection-settings';
import { MarketplaceError } from '../common/marketplace.errors';
import { isPlainObject } from '../kinvey/kinvey-doc';

/** Kinvey's backend names of the four basic permission levels. */
const BACKEND_LEVEL: Record<PermissionLevel, string> = {
  shared: 'append-read',
  private: 'append-only',
  'read-only': 'read-only',
  full: 'write',
};

/** A collection as the management API shows it. */
export interface ManagedCollection {
  readonly name: string;
  readonly permissions: string;
}

export function managedCollection(
  name: string,
  settings: CollectionSettings,
): ManagedCollection {
  return { name, permissions: BACKEND_LEVEL[settings.permissions ?? 'shared'] };
}

/**
 * The permission level of a management body's `permissions` (a backend
 * name); undefined when absent. Per-role permissions and collections of a
 * service (`dataLink`) are not served.
 */
export function levelOf(
  body: Readonly<Record<string, unknown>>,
): PermissionLevel | undefined {
  if (body['dataLink'] !== undefined && body['dataLink'] !== null)
    throw MarketplaceError.featureUnavailable(
      'dataLink',
      'Collections backed by a service (external collections) are not served here.',
    );
  const value = body['permissions'];
  if (value === undefined || value === null) return undefined;
  if (isPlainObject(value))
    throw MarketplaceError.featureUnavailable(
      'permissions',
      'Per-role collection permissions are not served here: use private, full, shared or read-only.',
    );
  const level = (Object.keys(BACKEND_LEVEL) as PermissionLevel[]).find(
    (key) => BACKEND_LEVEL[key] === value,
  );
  if (!level)
    throw MarketplaceError.badRequest(
      `permissions must be one of ${Object.values(BACKEND_LEVEL).join(', ')}.`,
      'permissions',
    );
  return level;
}
