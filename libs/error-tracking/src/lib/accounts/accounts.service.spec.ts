import {
  CLOCK,
  FixedClock,
  hashPassword,
  hashToken,
  verifyPassword,
} from '@quitanda/kernel';
import { newTestService } from '@quitanda/testing';

import { callerOf, tokenRecord, userRecord } from '../../testing/records';
import { ErrorTrackingErrorCode } from '../common/error-tracking.errors';
import type { UserRecord } from './account.types';
import { AccountsRepository } from './accounts.repository';
import { AccountsService, MIN_PASSWORD_LENGTH } from './accounts.service';

const NOW = '2026-06-01T10:00:00.000Z';
const PASSWORD = 'correct horse';

/** The hash `setPasswordHash` was last given is one of `password`. */
async function storedHashOf(
  repository: jest.Mocked<AccountsRepository>,
  password: string,
): Promise<boolean> {
  const [, hash] = repository.setPasswordHash.mock.lastCall ?? [];
  return verifyPassword(password, hash as string);
}

describe('AccountsService', () => {
  let service: AccountsService;
  let repository: jest.Mocked<AccountsRepository>;
  let passwordHash: string;
  const user = userRecord({ id: 7, username: 'ada' });

  beforeAll(async () => {
    passwordHash = await hashPassword(PASSWORD);
  });

  beforeEach(async () => {
    const built = await newTestService(AccountsService, [
      { provide: CLOCK, useValue: new FixedClock(NOW) },
    ]);
    service = built.sut;
    repository = built.mock(AccountsRepository);
  });

  describe('authenticate', () => {
    it.each([
      ['no token', undefined],
      ['an empty token', ''],
      ['a token over 512 characters', 'x'.repeat(513)],
    ])('answers 401 for %s without a lookup', async (_, secret) => {
      await expect(service.authenticate(secret)).rejects.toMatchObject({
        code: ErrorTrackingErrorCode.Unauthorized,
      });
      expect(repository.findTokenByDigest).not.toHaveBeenCalled();
    });

    it('finds the token by its digest and marks it used', async () => {
      const found = { user, token: tokenRecord() };
      repository.findTokenByDigest.mockResolvedValue(found);
      await expect(service.authenticate('glpat-secret')).resolves.toBe(found);
      expect(repository.findTokenByDigest).toHaveBeenCalledWith(
        hashToken('glpat-secret'),
      );
      expect(repository.touchToken).toHaveBeenCalledWith(11, new Date(NOW));
    });

    it('marks a token used at most once in ten minutes', async () => {
      const at = (iso: string) => ({
        user,
        token: tokenRecord({ lastUsedAt: new Date(iso) }),
      });
      repository.findTokenByDigest.mockResolvedValueOnce(
        at('2026-06-01T09:50:00.000Z'),
      );
      await service.authenticate('glpat-secret');
      expect(repository.touchToken).not.toHaveBeenCalled();
      repository.findTokenByDigest.mockResolvedValueOnce(
        at('2026-06-01T09:49:59.999Z'),
      );
      await service.authenticate('glpat-secret');
      expect(repository.touchToken).toHaveBeenCalledTimes(1);
    });

    it.each([
      ['unknown', undefined],
      ['revoked', { user, token: tokenRecord({ revoked: true }) }],
      [
        'expired since midnight',
        { user, token: tokenRecord({ expiresAt: '2026-06-01' }) },
      ],
      [
        "a blocked user's",
        { user: userRecord({ state: 'blocked' }), token: tokenRecord() },
      ],
    ])('answers 401 for a token that is %s', async (_, found) => {
      repository.findTokenByDigest.mockResolvedValue(found);
      await expect(service.authenticate('glpat-secret')).rejects.toMatchObject({
        code: ErrorTrackingErrorCode.Unauthorized,
      });
      expect(repository.touchToken).not.toHaveBeenCalled();
    });

    it('accepts a token on the last day before it expires', async () => {
      repository.findTokenByDigest.mockResolvedValue({
        user,
        token: tokenRecord({ expiresAt: '2026-06-02' }),
      });
      await expect(service.authenticate('glpat-secret')).resolves.toBeDefined();
    });
  });

  describe('checkPassword', () => {
    it('returns the active user whose password matches', async () => {
      repository.findCredentials.mockResolvedValue({ user, passwordHash });
      await expect(service.checkPassword('ada', PASSWORD)).resolves.toBe(user);
      expect(repository.findCredentials).toHaveBeenCalledWith('ada');
      await expect(
        service.checkPassword('ada', 'wrong password'),
      ).resolves.toBeUndefined();
    });

    it('refuses a blocked user, a user without a password and an unknown one', async () => {
      repository.findCredentials.mockResolvedValueOnce({
        user: userRecord({ state: 'blocked' }),
        passwordHash,
      });
      await expect(
        service.checkPassword('ada', PASSWORD),
      ).resolves.toBeUndefined();
      repository.findCredentials.mockResolvedValueOnce({
        user,
        passwordHash: null,
      });
      await expect(
        service.checkPassword('ada', PASSWORD),
      ).resolves.toBeUndefined();
      repository.findCredentials.mockResolvedValueOnce(undefined);
      await expect(
        service.checkPassword('bob', PASSWORD),
      ).resolves.toBeUndefined();
    });

    it('does not look up a name longer than a username can be', async () => {
      await expect(
        service.checkPassword('x'.repeat(256), PASSWORD),
      ).resolves.toBeUndefined();
      expect(repository.findCredentials).not.toHaveBeenCalled();
    });
  });

  describe('setPassword', () => {
    it('stores a hash of the new password for the named user', async () => {
      repository.findUserByUsername.mockResolvedValue(user);
      await expect(service.setPassword('ada', 'a new password')).resolves.toBe(
        user,
      );
      expect(repository.setPasswordHash).toHaveBeenCalledWith(
        7,
        expect.any(String),
      );
      await expect(storedHashOf(repository, 'a new password')).resolves.toBe(
        true,
      );
    });

    it('refuses a short password before any lookup, and an unknown user', async () => {
      await expect(
        service.setPassword('ada', 'x'.repeat(MIN_PASSWORD_LENGTH - 1)),
      ).rejects.toMatchObject({
        code: ErrorTrackingErrorCode.ValidationFailed,
        details: { fields: { password: [expect.stringMatching(/too short/)] } },
      });
      expect(repository.findUserByUsername).not.toHaveBeenCalled();
      repository.findUserByUsername.mockResolvedValue(undefined);
      await expect(
        service.setPassword('bob', 'a new password'),
      ).rejects.toMatchObject({ message: '404 User Not Found' });
      expect(repository.setPasswordHash).not.toHaveBeenCalled();
    });
  });

  describe('changeOwnPassword', () => {
    beforeEach(() => {
      repository.findCredentials.mockResolvedValue({ user, passwordHash });
    });

    async function refusal(change: {
      current: string;
      password: string;
      confirmation: string;
    }): Promise<Record<string, string[]>> {
      const error: unknown = await service
        .changeOwnPassword(user, change)
        .catch((e: unknown) => e);
      expect(error).toMatchObject({
        code: ErrorTrackingErrorCode.ValidationFailed,
      });
      expect(repository.setPasswordHash).not.toHaveBeenCalled();
      return (error as { details: { fields: Record<string, string[]> } })
        .details.fields;
    }

    it('replaces the password when the current one is right and the new one confirmed', async () => {
      await service.changeOwnPassword(user, {
        current: PASSWORD,
        password: 'battery staple',
        confirmation: 'battery staple',
      });
      expect(repository.findCredentials).toHaveBeenCalledWith('ada');
      await expect(storedHashOf(repository, 'battery staple')).resolves.toBe(
        true,
      );
    });

    it('names every problem at once', async () => {
      await expect(
        refusal({ current: 'wrong', password: 'short', confirmation: '' }),
      ).resolves.toEqual({
        current_password: ['You must provide a valid current password'],
        password: ['is too short (minimum is 8 characters)'],
      });
    });

    it('refuses the current password as the new one, and an unconfirmed one', async () => {
      await expect(
        refusal({
          current: PASSWORD,
          password: PASSWORD,
          confirmation: PASSWORD,
        }),
      ).resolves.toEqual({ password: ['must differ from the current one'] });
      await expect(
        refusal({
          current: PASSWORD,
          password: 'battery staple',
          confirmation: 'battery stapler',
        }),
      ).resolves.toEqual({ password_confirmation: ["doesn't match Password"] });
    });
  });

  describe('createUser', () => {
    beforeEach(() => {
      repository.insertUser.mockImplementation(async (u): Promise<UserRecord> =>
        userRecord({ username: u.username }),
      );
    });

    it('inserts a user with a hash of the password, not an admin by default', async () => {
      await service.createUser({
        username: 'ada.l-1',
        name: 'Ada',
        email: 'ada@example.com',
        password: PASSWORD,
      });
      const [inserted] = repository.insertUser.mock.lastCall ?? [];
      expect(inserted).toMatchObject({
        username: 'ada.l-1',
        name: 'Ada',
        email: 'ada@example.com',
        isAdmin: false,
        createdAt: new Date(NOW),
      });
      await expect(
        verifyPassword(PASSWORD, inserted?.passwordHash as string),
      ).resolves.toBe(true);
    });

    it('inserts a user without a password, and an admin when asked', async () => {
      await service.createUser({
        username: 'ops',
        name: 'Ops',
        email: 'ops@example.com',
        isAdmin: true,
      });
      expect(repository.insertUser).toHaveBeenCalledWith(
        expect.objectContaining({ passwordHash: null, isAdmin: true }),
      );
    });

    it('names every invalid field at once and inserts nothing', async () => {
      await expect(
        service.createUser({
          username: 'a b',
          name: 'A',
          email: 'no-at-sign',
          password: 'short',
        }),
      ).rejects.toMatchObject({
        code: ErrorTrackingErrorCode.ValidationFailed,
        details: {
          fields: {
            username: [expect.any(String)],
            email: ['is invalid'],
            password: [expect.stringMatching(/too short/)],
          },
        },
      });
      expect(repository.insertUser).not.toHaveBeenCalled();
    });

    it.each([
      ['users_username_lower_key', 'Username has already been taken'],
      ['users_email_lower_key', 'Email has already been taken'],
    ])('answers a conflict for %s', async (constraint, message) => {
      repository.insertUser.mockRejectedValue({ code: '23505', constraint });
      await expect(
        service.createUser({ username: 'ada', name: 'A', email: 'a@b.c' }),
      ).rejects.toMatchObject({
        code: ErrorTrackingErrorCode.Conflict,
        message,
      });
    });

    it('lets any other failure through unchanged', async () => {
      const failure = new Error('database is down');
      repository.insertUser.mockRejectedValue(failure);
      await expect(
        service.createUser({ username: 'ada', name: 'A', email: 'a@b.c' }),
      ).rejects.toBe(failure);
    });
  });

  it('answers User Not Found for an unknown id or username', async () => {
    repository.findUser.mockResolvedValue(undefined);
    await expect(service.getUser(8)).rejects.toMatchObject({
      code: ErrorTrackingErrorCode.NotFound,
      message: '404 User Not Found',
    });
    repository.findUserByUsername.mockResolvedValue(undefined);
    await expect(service.getUserByUsername('bob')).rejects.toMatchObject({
      message: '404 User Not Found',
    });
  });

  describe('tokens', () => {
    it.each([
      [{ scopes: [] }, ['scopes is empty']],
      [{ scopes: ['api', 'sudo'] }, ['scopes does not have a valid value']],
      [{ scopes: ['api'], expiresAt: '2026-13-01' }, ['expires_at is invalid']],
      [
        { scopes: ['api'], expiresAt: '2026-06-01' },
        ['expires_at must be in the future'],
      ],
      [
        { scopes: [], expiresAt: 'tomorrow' },
        ['scopes is empty', 'expires_at is invalid'],
      ],
      [{ scopes: ['read_api'], expiresAt: '2026-06-02' }, []],
    ])('finds in %j the problems %j', (input, problems) => {
      expect(service.tokenProblems({ name: 'ci', ...input })).toEqual(problems);
    });

    it('stores the digest of a token, scopes once each, and hands the secret back once', async () => {
      repository.findUser.mockResolvedValue(user);
      const record = tokenRecord();
      repository.insertToken.mockResolvedValue(record);
      await expect(
        service.createToken(
          7,
          { name: 'ci', scopes: ['api', 'api', 'read_api'] },
          'glpat-chosen',
        ),
      ).resolves.toEqual({ record, token: 'glpat-chosen' });
      expect(repository.insertToken).toHaveBeenCalledWith({
        userId: 7,
        name: 'ci',
        digest: hashToken('glpat-chosen'),
        scopes: ['api', 'read_api'],
        expiresAt: null,
        createdAt: new Date(NOW),
      });
    });

    it('makes a fresh glpat- secret when none is given', async () => {
      repository.findUser.mockResolvedValue(user);
      repository.insertToken.mockResolvedValue(tokenRecord());
      const first = await service.createToken(7, {
        name: 'a',
        scopes: ['api'],
      });
      const second = await service.createToken(7, {
        name: 'b',
        scopes: ['api'],
      });
      expect(first.token).toMatch(/^glpat-[A-Za-z0-9_-]{32}$/);
      expect(second.token).not.toBe(first.token);
    });

    it("answers GitLab's parameter error, then User Not Found, before storing anything", async () => {
      await expect(
        service.createToken(7, { name: 'ci', scopes: [], expiresAt: 'x' }),
      ).rejects.toMatchObject({
        code: ErrorTrackingErrorCode.InvalidParameter,
        message: 'scopes is empty, expires_at is invalid',
      });
      expect(repository.findUser).not.toHaveBeenCalled();
      repository.findUser.mockResolvedValue(undefined);
      await expect(
        service.createToken(7, { name: 'ci', scopes: ['api'] }),
      ).rejects.toMatchObject({ message: '404 User Not Found' });
      expect(repository.insertToken).not.toHaveBeenCalled();
    });

    it('answers a conflict when the digest is taken', async () => {
      repository.findUser.mockResolvedValue(user);
      repository.insertToken.mockResolvedValue(undefined);
      await expect(
        service.createToken(7, { name: 'ci', scopes: ['api'] }),
      ).rejects.toMatchObject({
        code: ErrorTrackingErrorCode.Conflict,
        message: 'Token has already been taken',
      });
    });

    it("revokes the caller's own token, and anyone's for an admin", async () => {
      repository.findToken.mockResolvedValue(
        tokenRecord({ id: 11, userId: 7 }),
      );
      await service.revokeToken(callerOf({ id: 7 }), 11);
      repository.findToken.mockResolvedValue(
        tokenRecord({ id: 12, userId: 8 }),
      );
      await service.revokeToken(callerOf({ id: 7, isAdmin: true }), 12);
      expect(repository.revokeToken.mock.calls).toEqual([[11], [12]]);
    });

    it("answers 404 for another user's token and an unknown one", async () => {
      repository.findToken.mockResolvedValueOnce(tokenRecord({ userId: 8 }));
      await expect(
        service.revokeToken(callerOf({ id: 7 }), 11),
      ).rejects.toMatchObject({ code: ErrorTrackingErrorCode.NotFound });
      repository.findToken.mockResolvedValueOnce(undefined);
      await expect(
        service.revokeToken(callerOf({ id: 7, isAdmin: true }), 11),
      ).rejects.toMatchObject({ code: ErrorTrackingErrorCode.NotFound });
      expect(repository.revokeToken).not.toHaveBeenCalled();
    });
  });
});
