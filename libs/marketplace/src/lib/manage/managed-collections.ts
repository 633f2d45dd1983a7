import type {
  CollectionSettings,
  PermissionLevel,
} from '../collections/collection-settings';
import { MarketplaceError } from '../common/marketplace.errors';
import { isPlainObject } from '../kinvey/kinvey-doc';
import type { DataLink } from './managed-business-logic.service';

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
  readonly dataLink?: DataLink;
}

export function managedCollection(
  name: string,
  settings: CollectionSettings,
  dataLink?: DataLink,
): ManagedCollection {
  return {
    name,
    permissions: BACKEND_LEVEL[settings.permissions ?? 'shared'],
    ...(dataLink ? { dataLink } : {}),
  };
}

/**
 * A body's `dataLink` (the collection served by a Flex service object);
 * undefined when absent.
 */
export function dataLinkOf(
  body: Readonly<Record<string, unknown>>,
): DataLink | undefined {
  const link = body['dataLink'];
  if (link === undefined || link === null) return undefined;
  const field = (name: string): string => {
    const value = isPlainObject(link) ? link[name] : undefined;
    if (typeof value !== 'string' || value === '' || value.length > 255)
      throw MarketplaceError.badRequest(
        `dataLink.${name} (1 to 255 characters) is required.`,
        `dataLink.${name}`,
      );
    return value;
  };
  return {
    id: field('id'),
    backingServerId: field('backingServerId'),
    serviceObjectName: field('serviceObjectName'),
  };
}

/**
 * The permission level of a management body's `permissions` (a backend
 * name); undefined when absent. Per-role permissions are not served.
 */
export function levelOf(
  body: Readonly<Record<string, unknown>>,
): PermissionLevel | undefined {
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
