import type { AppRecord } from '../apps/app.types';
import { MarketplaceErrorCode } from '../common/marketplace.errors';
import type { StoredUser } from './stored-user';
import {
  canRead,
  canWrite,
  nextAcl,
  requireAccess,
  requireOperator,
} from './access';
import type { Principal } from './principal';

const app = (
  appCredentialAccess: AppRecord['appCredentialAccess'],
): AppRecord => ({
  appKey: 'kid_a',
  name: 'A',
  environmentName: 'Development',
  appSecretDigest: '',
  masterSecretDigest: '',
  appCredentialAccess,
  signingKey: '',
  createdAt: new Date(0),
});

const user = (id: string): Principal => ({
  kind: 'user',
  app: app('read-create'),
  user: {
    id,
    username: id,
    doc: {},
    passwordHash: '',
    disabled: false,
  } as StoredUser,
});

describe('access rules', () => {
  const master: Principal = { kind: 'master', app: app('none') };

  it('lets every user read unless _acl.gr is false; then the creator and _acl.r', () => {
    expect(canRead(user('u2'), { _acl: { creator: 'u1' } })).toBe(true);
    const hidden = { _acl: { creator: 'u1', gr: false, r: ['u3'] } };
    expect(canRead(user('u1'), hidden)).toBe(true);
    expect(canRead(user('u3'), hidden)).toBe(true);
    expect(canRead(user('u2'), hidden)).toBe(false);
    expect(canRead(master, hidden)).toBe(true);
  });

  it('lets app credentials read only what every user may read, even what the app created', () => {
    const appCredentials: Principal = { kind: 'app', app: app('read') };
    expect(canRead(appCredentials, { _acl: { creator: 'u1' } })).toBe(true);
    for (const acl of [
      { creator: 'u1', gr: false },
      { creator: 'kid_a', gr: false },
      { creator: 'u1', gr: false, r: ['kid_a'] },
    ])
      expect(canRead(appCredentials, { _acl: acl })).toBe(false);
  });

  it('lets the creator, _acl.w and anyone with _acl.gw write; master always; app never', () => {
    const doc = { _acl: { creator: 'u1', w: ['u3'] } };
    expect(canWrite(user('u1'), doc)).toBe(true);
    expect(canWrite(user('u3'), doc)).toBe(true);
    expect(canWrite(user('u2'), doc)).toBe(false);
    expect(canWrite(user('u2'), { _acl: { creator: 'u1', gw: true } })).toBe(
      true,
    );
    expect(canWrite(master, doc)).toBe(true);
    expect(canWrite({ kind: 'app', app: app('read-create') }, doc)).toBe(false);
  });

  it('lets only the creator or master change an existing _acl, keeping its creator', () => {
    const existing = { _acl: { creator: 'u1', gr: false, w: ['u3'] } };
    const sent = { creator: 'u3', gr: true, r: ['u3'], extra: 1 };
    expect(nextAcl(user('u3'), sent, existing)).toEqual(existing._acl);
    expect(nextAcl(user('u1'), sent, existing)).toEqual({
      creator: 'u1',
      gr: true,
      r: ['u3'],
    });
    expect(nextAcl(master, sent, existing)).toMatchObject({ creator: 'u1' });
    expect(nextAcl(user('u1'), undefined, existing)).toEqual(existing._acl);
    expect(nextAcl(master, sent, undefined)).toEqual({
      creator: 'kid_a',
      gr: true,
      r: ['u3'],
    });
  });

  it('gives app credentials what appCredentialAccess says, as InsufficientCredentials otherwise', () => {
    const insufficient = expect.objectContaining({
      code: MarketplaceErrorCode.InsufficientCredentials,
    });
    expect(() =>
      requireAccess({ kind: 'app', app: app('read-create') }, 'create'),
    ).not.toThrow();
    expect(() =>
      requireAccess({ kind: 'app', app: app('read') }, 'read'),
    ).not.toThrow();
    expect(() =>
      requireAccess({ kind: 'app', app: app('read') }, 'create'),
    ).toThrow(insufficient);
    expect(() =>
      requireAccess({ kind: 'app', app: app('none') }, 'read'),
    ).toThrow(insufficient);
    expect(() =>
      requireAccess({ kind: 'app', app: app('read-create') }, 'write'),
    ).toThrow(insufficient);
    expect(() => requireAccess(user('u1'), 'write')).not.toThrow();
  });

  it("leaves administration to the master secret itself, not to a Flex service's handed one", () => {
    expect(() =>
      requireOperator({ kind: 'master', app: app('read') }),
    ).not.toThrow();
    for (const principal of [
      { kind: 'master', app: app('read'), flexService: 'produce' },
      { kind: 'app', app: app('read-create') },
      user('u1'),
    ] as Principal[])
      expect(() => requireOperator(principal)).toThrow(
        expect.objectContaining({
          code: MarketplaceErrorCode.InsufficientCredentials,
        }),
      );
  });
});
