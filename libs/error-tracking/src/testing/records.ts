import type {
  Caller,
  TokenRecord,
  UserRecord,
} from '../lib/accounts/account.types';
import { AccessLevel } from '../lib/common/error-tracking.constants';
import type { ErrorRecord } from '../lib/errors/error.types';
import type {
  ProjectAccess,
  ProjectRecord,
} from '../lib/projects/project.types';

// Valid records with overrides, for unit specs that hand a service what its
// repositories would have read.

const CREATED = new Date('2026-01-01T00:00:00.000Z');

export function userRecord(overrides: Partial<UserRecord> = {}): UserRecord {
  return {
    id: 7,
    username: 'ada',
    name: 'Ada',
    email: 'ada@example.com',
    isAdmin: false,
    state: 'active',
    passwordExpiresAt: null,
    createdAt: CREATED,
    ...overrides,
  };
}

export function tokenRecord(overrides: Partial<TokenRecord> = {}): TokenRecord {
  return {
    id: 11,
    userId: 7,
    name: 'ci',
    scopes: ['api'],
    expiresAt: null,
    revoked: false,
    createdAt: CREATED,
    lastUsedAt: null,
    ...overrides,
  };
}

export function callerOf(user: Partial<UserRecord> = {}): Caller {
  const record = userRecord(user);
  return { user: record, token: tokenRecord({ userId: record.id }) };
}

export function projectRecord(
  overrides: Partial<ProjectRecord> = {},
): ProjectRecord {
  return {
    id: 3,
    name: 'Shop',
    path: 'shop',
    description: '',
    createdAt: CREATED,
    trackingActive: true,
    trackingIntegrated: true,
    ...overrides,
  };
}

export function projectAccess(
  accessLevel: number = AccessLevel.Maintainer,
  project: Partial<ProjectRecord> = {},
): ProjectAccess {
  return { project: projectRecord(project), accessLevel };
}

export function errorRecord(overrides: Partial<ErrorRecord> = {}): ErrorRecord {
  return {
    id: '42',
    projectId: 3,
    title: 'TypeError: x is undefined',
    type: 'TypeError',
    message: 'x is undefined',
    culprit: 'app.js in main',
    status: 'unresolved',
    count: 5,
    userCount: 2,
    firstSeen: CREATED,
    lastSeen: new Date('2026-01-02T00:00:00.000Z'),
    level: 'error',
    logger: null,
    platform: 'javascript',
    firstRelease: null,
    lastRelease: null,
    lastEventId: 'a'.repeat(32),
    issueIid: null,
    groupingVersion: 1,
    ignoredUntil: null,
    ignoredUntilCount: null,
    ignoredUntilUserCount: null,
    ...overrides,
  };
}
