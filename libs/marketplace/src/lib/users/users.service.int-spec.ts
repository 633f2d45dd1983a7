import type { TestingModule } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import { FixedClock, hashPassword } from '@quitanda/kernel';
import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';
import type { DataSource } from 'typeorm';

import {
  marketplaceTestModule,
  sqlOf,
} from '../../testing/marketplace-test-module';
import { CollectionsRepository } from '../app-collections/collections.repository';
import { CollectionsService } from '../app-collections/collections.service';
import { AppsRepository } from '../apps/apps.repository';
import { AppsService } from '../apps/apps.service';
import { FlexCallbackCredentials } from '../auth/flex-callback-credentials';
import { AuthService } from '../auth/auth.service';
import { SESSION_CACHE_PROVIDER } from '../auth/session-cache';
import { MARKETPLACE_DATA_SOURCE } from '../common/marketplace.constants';
import { MarketplaceErrorCode } from '../common/marketplace.errors';
import { LoginService } from '../auth/login.service';
import { CredentialsRepository } from '../auth/credentials.repository';
import { SessionsService } from '../auth/sessions.service';
import { DisableReservedUserIds1795727426293 } from '../persistence/migrations/1795727426293-DisableReservedUserIds';
import { SignupCountsRepository } from './signup-counts.repository';
import { MfaRepository } from '../mfa/mfa.repository';
import { SecondFactorService } from '../mfa/second-factor.service';
import { SecondFactorGate } from '../auth/second-factor-gate';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

const DAY_MS = 86_400_000;

describe('users: sessions and passwords', () => {
  let database: TestDatabase;
  let module: TestingModule;
  const clock = new FixedClock('2026-11-22T10:00:00.000Z');
  let appKey: string;
  let appSecret: string;
  let masterSecret: string;

  beforeAll(async () => {
    database = await openTestDatabase();
    module = await marketplaceTestModule(
      database.url,
      [
        AppsRepository,
        AppsService,
        UsersRepository,
        CredentialsRepository,
        LoginService,
        SessionsService,
        UsersService,
        SignupCountsRepository,
        AuthService,
        FlexCallbackCredentials,
        MfaRepository,
        SecondFactorService,
        { provide: SecondFactorGate, useExisting: SecondFactorService },
        SESSION_CACHE_PROVIDER,
        CollectionsRepository,
        CollectionsService,
      ],
      { tokenLifetimeDays: 2 },
      clock,
    );
    const created = await module.get(AppsService).create({ name: 'Sessions' });
    appKey = created.appKey;
    appSecret = created.appSecret;
    masterSecret = created.masterSecret;
  });

  afterAll(async () => {
    await module?.close();
    await database?.close();
  });

  async function signup(username: string) {
    const auth = module.get(AuthService);
    const app = await auth.authenticate(appKey, appSecret);
    const doc = await module
      .get(UsersService)
      .signup(app, { username, password: 'a long password' }, '192.0.2.1');
    return {
      id: doc['_id'] as string,
      token: (doc['_kmd'] as { authtoken: string }).authtoken,
    };
  }

  it('stores only the token digest and an argon2id password hash', async () => {
    const user = await signup('hash@example.com');
    const rows = await sqlOf(module).rows<{
      doc: unknown;
      password_hash: string;
    }>('SELECT doc, password_hash FROM marketplace.users WHERE id = $1', [
      user.id,
    ]);
    expect(rows[0]?.password_hash).toMatch(/^\$argon2id\$/);
    expect(JSON.stringify(rows[0]?.doc)).not.toContain('a long password');
    const tokens = await sqlOf(module).rows<{ digest: string }>(
      'SELECT digest FROM marketplace.user_tokens WHERE user_id = $1',
      [user.id],
    );
    expect(tokens).toHaveLength(1);
    expect(tokens[0]?.digest).not.toContain(user.token);
  });

  it('a hard delete leaves no second factor of the user behind', async () => {
    const user = await signup('mfa-gone@example.com');
    const mfa = module.get(MfaRepository);
    await mfa.insertAuthenticator(
      appKey,
      user.id,
      {
        id: 'phone',
        name: 'phone',
        type: 'totp',
        sealedSecret: 'sealed',
        verified: false,
      },
      clock.now(),
    );
    await mfa.confirm(appKey, user.id, 'phone');
    const master = await module
      .get(AuthService)
      .authenticate(
        appKey,
        `Basic ${Buffer.from(`${appKey}:${masterSecret}`).toString('base64')}`,
      );
    await module.get(UsersService).remove(master, user.id, { hard: true });
    await expect(mfa.listVerified(appKey, user.id)).resolves.toEqual([]);
  });

  it('tokens expire after the configured lifetime', async () => {
    const user = await signup('expiry@example.com');
    const auth = module.get(AuthService);
    await expect(
      auth.authenticate(appKey, `Kinvey ${user.token}`),
    ).resolves.toMatchObject({ kind: 'user' });
    clock.advance(2 * DAY_MS + 1);
    await expect(
      auth.authenticate(appKey, `Kinvey ${user.token}`),
    ).rejects.toMatchObject({
      code: MarketplaceErrorCode.InvalidCredentials,
    });
  });

  it('a token of one app is no credential in another', async () => {
    const user = await signup('crossapp@example.com');
    const other = await module.get(AppsService).create({ name: 'Other' });
    await expect(
      module
        .get(AuthService)
        .authenticate(other.appKey, `Kinvey ${user.token}`),
    ).rejects.toMatchObject({
      code: MarketplaceErrorCode.InvalidCredentials,
    });
  });

  describe('with sessions remembered between calls', () => {
    const refused = { code: MarketplaceErrorCode.InvalidCredentials };

    async function session(username: string) {
      const user = await signup(username);
      const auth = module.get(AuthService);
      const principal = await auth.authenticate(appKey, `Kinvey ${user.token}`);
      return { ...user, principal };
    }

    it('serves a repeated call without reading the token again', async () => {
      const user = await session('cached@example.com');
      const repository = module.get(CredentialsRepository);
      const reads = jest.spyOn(repository, 'findSession');
      await module
        .get(AuthService)
        .authenticate(appKey, `Kinvey ${user.token}`);
      expect(reads).not.toHaveBeenCalled();
      reads.mockRestore();
    });

    it('refuses a token at once after its logout', async () => {
      const user = await session('logout@example.com');
      await module.get(SessionsService).logOut(user.principal);
      await expect(
        module.get(AuthService).authenticate(appKey, `Kinvey ${user.token}`),
      ).rejects.toMatchObject(refused);
    });

    it("refuses the user's other sessions at once after a password change", async () => {
      const user = await session('password@example.com');
      const other = await module
        .get(SessionsService)
        .logIn(await module.get(AuthService).authenticate(appKey, appSecret), {
          username: 'password@example.com',
          password: 'a long password',
        });
      const otherToken = (other['_kmd'] as { authtoken: string }).authtoken;
      await module
        .get(AuthService)
        .authenticate(appKey, `Kinvey ${otherToken}`);
      await module
        .get(UsersService)
        .update(
          user.principal,
          user.id,
          { username: 'password@example.com', password: 'another long one' },
          user.token,
        );
      await expect(
        module.get(AuthService).authenticate(appKey, `Kinvey ${otherToken}`),
      ).rejects.toMatchObject(refused);
    });

    it('refuses a disabled user at once', async () => {
      const user = await session('disabled@example.com');
      const master = await module
        .get(AuthService)
        .authenticate(
          appKey,
          `Basic ${Buffer.from(`${appKey}:${masterSecret}`).toString('base64')}`,
        );
      await module.get(UsersService).remove(master, user.id, { hard: false });
      await expect(
        module.get(AuthService).authenticate(appKey, `Kinvey ${user.token}`),
      ).rejects.toMatchObject(refused);
    });
  });

  it('disables a user stored with a reserved id before the rule: no login, no session (DisableReservedUserIds)', async () => {
    const refused = { code: MarketplaceErrorCode.InvalidCredentials };
    const username = 'old-squatter@example.com';
    await module.get(UsersRepository).insert(
      appKey,
      {
        id: appKey,
        username,
        doc: { _id: appKey, username, _acl: { creator: appKey } },
        passwordHash: await hashPassword('a long password'),
      },
      clock.now(),
    );
    const token = await module.get(SessionsService).issue(appKey, appKey);
    const dataSource = module.get<DataSource>(
      getDataSourceToken(MARKETPLACE_DATA_SOURCE),
    );
    const runner = dataSource.createQueryRunner();
    try {
      await new DisableReservedUserIds1795727426293().up(runner);
    } finally {
      await runner.release();
    }
    const auth = module.get(AuthService);
    await expect(
      auth.authenticate(appKey, `Kinvey ${token}`),
    ).rejects.toMatchObject(refused);
    await expect(
      auth.authenticate(
        appKey,
        `Basic ${Buffer.from(`${username}:a long password`).toString('base64')}`,
      ),
    ).rejects.toMatchObject(refused);
  });
});
