import type { AppRecord } from '../lib/apps/app.types';
import type { Principal } from '../lib/auth/principal';
import type { StoredUser } from '../lib/auth/stored-user';

/** An app as the repository returns it; digests empty unless a spec needs them. */
export function testApp(overrides: Partial<AppRecord> = {}): AppRecord {
  return {
    appKey: 'kid_test',
    name: 'Test',
    environmentName: 'Development',
    appSecretDigest: '',
    masterSecretDigest: '',
    appCredentialAccess: 'read-create',
    signingKey: 'test-signing-key',
    createdAt: new Date(0),
    ...overrides,
  };
}

/** A stored user (named after its id unless named), enabled, with no password hash. */
export function testUser(
  id: string,
  overrides: Partial<StoredUser> = {},
): StoredUser {
  const username = overrides.username ?? id;
  return {
    id,
    username,
    doc: { _id: id, username },
    passwordHash: '',
    disabled: false,
    ...overrides,
  };
}

export const masterOf = (app = testApp()): Principal => ({
  kind: 'master',
  app,
});

export const appCaller = (app = testApp()): Principal => ({ kind: 'app', app });

export const userCaller = (
  user: StoredUser | string,
  app = testApp(),
  tokenDigest?: string,
): Principal => ({
  kind: 'user',
  app,
  user: typeof user === 'string' ? testUser(user) : user,
  tokenDigest,
});
