import { CLOCK, FixedClock, hashToken, verifyPassword } from '@quitanda/kernel';
import { newTestService } from '@quitanda/testing';

import {
  appCaller,
  masterOf,
  testApp,
  testUser,
  userCaller,
} from '../../testing/principals';
import { CredentialsRepository } from '../auth/credentials.repository';
import { MARKETPLACE_OPTIONS } from '../common/marketplace.constants';
import { SessionCache } from '../auth/session-cache';
import { MarketplaceErrorCode } from '../common/marketplace.errors';
import { UsersRepository } from '../users/users.repository';
import { AccountActionsService } from './account-actions.service';
import { MarketplaceDatabase } from '../persistence/marketplace-database';
import type { MarketplaceTx } from '../persistence/marketplace-database';
import { AccountMailer } from './account-mailer';
import { AccountMailRepository } from './account-mail.repository';
import type { QueuedMail } from './account-mail.repository';
import { AccountMailWorker } from './account-mail.worker';
import { AccountTokensRepository } from './account-tokens.repository';

const BASE = 'https://api.example';
const ANA = testUser('u1', {
  username: 'ana',
  doc: {
    _id: 'u1',
    username: 'ana',
    email: 'ana@example.org',
    _kmd: { lmt: 'x' },
  },
});
/** The transaction the service hands to repositories. */
const TX = { rows: jest.fn() } as unknown as MarketplaceTx;
const TOKEN = { appKey: 'kid_test', userId: 'u1', email: 'ana@example.org' };

describe('AccountActionsService', () => {
  let service: AccountActionsService;
  let mailer: jest.Mocked<AccountMailer>;
  let outbox: jest.Mocked<AccountMailRepository>;
  let worker: jest.Mocked<AccountMailWorker>;
  let tokens: jest.Mocked<AccountTokensRepository>;
  let users: jest.Mocked<UsersRepository>;
  let credentials: jest.Mocked<CredentialsRepository>;
  let sessions: jest.Mocked<SessionCache>;
  let mailOn: boolean;
  let options: { publicBaseUrl?: string };
  const clock = new FixedClock('2026-06-01T10:00:00.000Z');

  beforeEach(async () => {
    options = { publicBaseUrl: BASE };
    const built = await newTestService(AccountActionsService, [
      { provide: CLOCK, useValue: clock },
      { provide: MARKETPLACE_OPTIONS, useValue: options },
    ]);
    service = built.sut;
    mailer = built.mock(AccountMailer);
    outbox = built.mock(AccountMailRepository);
    worker = built.mock(AccountMailWorker);
    outbox.withinLimits.mockResolvedValue(true);
    built
      .mock(MarketplaceDatabase)
      .transaction.mockImplementation((work) => work(TX));
    tokens = built.mock(AccountTokensRepository);
    users = built.mock(UsersRepository);
    credentials = built.mock(CredentialsRepository);
    sessions = built.mock(SessionCache);
    mailOn = true;
    Object.defineProperty(mailer, 'enabled', { get: () => mailOn });
    credentials.findByUsername.mockResolvedValue(ANA);
    users.findById.mockResolvedValue(ANA);
    tokens.insert.mockResolvedValue(true);
    tokens.live.mockResolvedValue(TOKEN);
  });

  /** The one mail queued, in the transaction, and the worker woken. */
  function queued(): QueuedMail {
    expect(outbox.enqueue).toHaveBeenCalledTimes(1);
    expect(outbox.enqueue).toHaveBeenCalledWith(
      expect.anything(),
      clock.now(),
      TX,
    );
    expect(worker.kick).toHaveBeenCalledTimes(1);
    return outbox.enqueue.mock.calls[0]?.[0] as QueuedMail;
  }

  /** The one mail queued, and the token its link carries. */
  function mailed(): { email: QueuedMail; token: string; link: URL } {
    const email = queued();
    const link = new URL(/https:\S+/.exec(email.text)?.[0] ?? '');
    return { email, token: link.searchParams.get('token') ?? '', link };
  }

  it.each([
    ['mail is off', () => (mailOn = false), 'not available'],
    [
      'PUBLIC_BASE_URL is unset',
      () => delete options.publicBaseUrl,
      'PUBLIC_BASE_URL',
    ],
  ])(
    'answers every mail call with FeatureUnavailable while %s, reading nothing',
    async (_case, turnOff, named) => {
      turnOff();
      const calls = [
        service.initiatePasswordReset(appCaller(), 'ana'),
        service.initiateEmailVerification(appCaller(), 'ana'),
        service.forgotUsername(appCaller(), { email: 'ana@example.org' }),
      ];
      for (const call of calls)
        await expect(call).rejects.toMatchObject({
          code: MarketplaceErrorCode.FeatureUnavailable,
          message: expect.stringContaining(named),
        });
      expect(credentials.findByUsername).not.toHaveBeenCalled();
      expect(tokens.usernamesByEmail).not.toHaveBeenCalled();
    },
  );

  it('queues nothing, and takes no token or turn, past the limits per address and app', async () => {
    outbox.withinLimits.mockResolvedValue(false);
    tokens.usernamesByEmail.mockResolvedValue(['ana']);
    await service.initiatePasswordReset(appCaller(), 'ana');
    await service.initiateEmailVerification(appCaller(), 'ana');
    await service.forgotUsername(appCaller(), { email: 'ana@example.org' });
    expect(outbox.withinLimits).toHaveBeenCalledWith(
      expect.objectContaining({ appKey: 'kid_test', to: 'ana@example.org' }),
      clock.now(),
      { perAddressPerHour: 5, perAppPerHour: 500 },
      TX,
    );
    expect(tokens.insert).not.toHaveBeenCalled();
    expect(tokens.takeMailTurn).not.toHaveBeenCalled();
    expect(outbox.enqueue).not.toHaveBeenCalled();
    expect(worker.kick).not.toHaveBeenCalled();
  });

  describe('password reset', () => {
    it('mails a one-hour link whose token is stored only as its digest, once a minute at most', async () => {
      await service.initiatePasswordReset(appCaller(), 'ana');
      expect(credentials.findByUsername).toHaveBeenCalledWith(
        'kid_test',
        'ana',
      );
      const { email, token, link } = mailed();
      expect(email).toMatchObject({
        to: 'ana@example.org',
        subject: 'Reset your password',
      });
      expect(link.pathname).toBe('/account/kid_test/password-reset');
      expect(tokens.insert).toHaveBeenCalledWith(
        hashToken(token),
        'password-reset',
        TOKEN,
        new Date('2026-06-01T11:00:00.000Z'),
        clock.now(),
        60_000,
        TX,
      );
    });

    it('mails an e-mail-like username when no e-mail is stored', async () => {
      credentials.findByUsername.mockResolvedValue(
        testUser('u2', { username: 'bia@example.org' }),
      );
      await service.initiatePasswordReset(masterOf(), 'bia@example.org');
      expect(mailed().email.to).toBe('bia@example.org');
    });

    it('answers alike, mailing nothing, for unknown, disabled and address-less users and within the quiet minute', async () => {
      credentials.findByUsername.mockResolvedValueOnce(undefined);
      await service.initiatePasswordReset(appCaller(), 'nobody');
      credentials.findByUsername.mockResolvedValueOnce({
        ...ANA,
        disabled: true,
      });
      await service.initiatePasswordReset(appCaller(), 'ana');
      credentials.findByUsername.mockResolvedValueOnce(testUser('u3'));
      await service.initiatePasswordReset(appCaller(), 'u3');
      expect(tokens.insert).not.toHaveBeenCalled();
      tokens.insert.mockResolvedValue(false);
      await service.initiatePasswordReset(appCaller(), 'ana');
      expect(outbox.enqueue).not.toHaveBeenCalled();
      expect(worker.kick).not.toHaveBeenCalled();
    });

    it('is not for users themselves', async () => {
      await expect(
        service.initiatePasswordReset(userCaller(ANA), 'ana'),
      ).rejects.toMatchObject({
        code: MarketplaceErrorCode.InsufficientCredentials,
      });
    });

    it('sets the new password with a used-up token and ends every session', async () => {
      await expect(
        service.completePasswordReset('kid_test', 'tok', 'new-password'),
      ).resolves.toBe(true);
      expect(tokens.live).toHaveBeenNthCalledWith(
        1,
        hashToken('tok'),
        'password-reset',
        'kid_test',
        clock.now(),
        false,
      );
      expect(tokens.live).toHaveBeenNthCalledWith(
        2,
        hashToken('tok'),
        'password-reset',
        'kid_test',
        clock.now(),
        true,
      );
      const [appKey, id, username, doc, hash, at] =
        users.update.mock.calls[0] ?? [];
      expect([appKey, id, username, doc, at]).toEqual([
        'kid_test',
        'u1',
        'ana',
        ANA.doc,
        clock.now(),
      ]);
      await expect(verifyPassword('new-password', String(hash))).resolves.toBe(
        true,
      );
      expect(credentials.revokeAll).toHaveBeenCalledWith('kid_test', 'u1');
      expect(sessions.forgetUser).toHaveBeenCalledWith('kid_test', 'u1');
    });

    it('changes nothing for a dead token, a disabled user, a token used meanwhile or a bad password', async () => {
      tokens.live.mockResolvedValueOnce(undefined);
      await expect(
        service.completePasswordReset('kid_test', 'tok', 'new-password'),
      ).resolves.toBe(false);
      users.findById.mockResolvedValueOnce({ ...ANA, disabled: true });
      await expect(
        service.completePasswordReset('kid_test', 'tok', 'new-password'),
      ).resolves.toBe(false);
      tokens.live.mockResolvedValueOnce(TOKEN).mockResolvedValueOnce(undefined);
      await expect(
        service.completePasswordReset('kid_test', 'tok', 'new-password'),
      ).resolves.toBe(false);
      await expect(
        service.completePasswordReset('kid_test', 'tok', 'x'),
      ).rejects.toMatchObject({
        code: MarketplaceErrorCode.BadRequest,
      });
      expect(users.update).not.toHaveBeenCalled();
      expect(credentials.revokeAll).not.toHaveBeenCalled();
    });

    it('tells a page whether its token still works, without using it up', async () => {
      await expect(
        service.isLive('password-reset', 'kid_test', 'tok'),
      ).resolves.toBe(true);
      expect(tokens.live).toHaveBeenCalledWith(
        hashToken('tok'),
        'password-reset',
        'kid_test',
        clock.now(),
        false,
      );
      users.findById.mockResolvedValueOnce(undefined);
      await expect(
        service.isLive('password-reset', 'kid_test', 'tok'),
      ).resolves.toBe(false);
      tokens.live.mockResolvedValueOnce(undefined);
      await expect(
        service.isLive('email-verification', 'kid_test', 'tok'),
      ).resolves.toBe(false);
    });
  });

  describe('e-mail verification', () => {
    it('mails a user its own verification link', async () => {
      await service.initiateEmailVerification(userCaller(ANA), 'ana');
      const { email, token, link } = mailed();
      expect(email).toMatchObject({
        to: 'ana@example.org',
        subject: 'Confirm your e-mail address',
      });
      expect(link.pathname).toBe('/account/kid_test/verify-email');
      expect(tokens.insert).toHaveBeenCalledWith(
        hashToken(token),
        'email-verification',
        TOKEN,
        expect.any(Date),
        clock.now(),
        60_000,
        TX,
      );
    });

    it('records the mailed address as sent in _kmd, keeping when an address was last confirmed', async () => {
      const confirmedAt = '2026-01-01T00:00:00.000Z';
      credentials.findByUsername.mockResolvedValueOnce({
        ...ANA,
        doc: {
          ...ANA.doc,
          _kmd: {
            lmt: 'x',
            emailVerification: {
              status: 'confirmed',
              lastStateChangeAt: confirmedAt,
              lastConfirmedAt: confirmedAt,
              emailAddress: 'old@example.org',
            },
          },
        },
      });
      await service.initiateEmailVerification(appCaller(), 'ana');
      expect(users.setEmailVerification).toHaveBeenCalledWith(
        'kid_test',
        'u1',
        {
          status: 'sent',
          lastStateChangeAt: clock.now().toISOString(),
          lastConfirmedAt: confirmedAt,
          emailAddress: 'ana@example.org',
        },
      );
      expect(sessions.forgetUser).toHaveBeenCalledWith('kid_test', 'u1');
    });

    it('records nothing when no mail goes (one a minute per user)', async () => {
      tokens.insert.mockResolvedValueOnce(false);
      await service.initiateEmailVerification(appCaller(), 'ana');
      expect(outbox.enqueue).not.toHaveBeenCalled();
      expect(users.setEmailVerification).not.toHaveBeenCalled();
    });

    it('refuses another user’s address, an unknown or disabled user and a user without address', async () => {
      await expect(
        service.initiateEmailVerification(userCaller('u9'), 'ana'),
      ).rejects.toMatchObject({
        code: MarketplaceErrorCode.InsufficientCredentials,
      });
      credentials.findByUsername.mockResolvedValueOnce(undefined);
      await expect(
        service.initiateEmailVerification(appCaller(), 'x'),
      ).rejects.toMatchObject({
        code: MarketplaceErrorCode.UserNotFound,
      });
      credentials.findByUsername.mockResolvedValueOnce({
        ...ANA,
        disabled: true,
      });
      await expect(
        service.initiateEmailVerification(appCaller(), 'ana'),
      ).rejects.toMatchObject({
        code: MarketplaceErrorCode.UserNotFound,
      });
      credentials.findByUsername.mockResolvedValueOnce(testUser('u3'));
      await expect(
        service.initiateEmailVerification(appCaller(), 'u3'),
      ).rejects.toMatchObject({
        code: MarketplaceErrorCode.BadRequest,
        debug: 'email',
      });
      expect(tokens.insert).not.toHaveBeenCalled();
    });

    it('records the confirmed address in _kmd and forgets the cached user', async () => {
      await expect(
        service.completeEmailVerification('kid_test', 'tok'),
      ).resolves.toBe(true);
      expect(tokens.live).toHaveBeenCalledWith(
        hashToken('tok'),
        'email-verification',
        'kid_test',
        clock.now(),
        true,
      );
      const iso = clock.now().toISOString();
      expect(users.setEmailVerification).toHaveBeenCalledWith(
        'kid_test',
        'u1',
        {
          status: 'confirmed',
          lastStateChangeAt: iso,
          lastConfirmedAt: iso,
          emailAddress: 'ana@example.org',
        },
      );
      expect(sessions.forgetUser).toHaveBeenCalledWith('kid_test', 'u1');
    });

    it('confirms nothing for a dead token or a user gone or disabled', async () => {
      tokens.live.mockResolvedValueOnce(undefined);
      await expect(
        service.completeEmailVerification('kid_test', 'tok'),
      ).resolves.toBe(false);
      users.findById.mockResolvedValueOnce(undefined);
      await expect(
        service.completeEmailVerification('kid_test', 'tok'),
      ).resolves.toBe(false);
      users.findById.mockResolvedValueOnce({ ...ANA, disabled: true });
      await expect(
        service.completeEmailVerification('kid_test', 'tok'),
      ).resolves.toBe(false);
      expect(users.setEmailVerification).not.toHaveBeenCalled();
    });
  });

  describe('forgotten usernames', () => {
    it('mails the usernames of an address, limited per address in any case', async () => {
      tokens.usernamesByEmail.mockResolvedValue(['ana', 'ana2']);
      tokens.takeMailTurn.mockResolvedValue(true);
      await service.forgotUsername(appCaller(), { email: ' Ana@Example.org' });
      expect(tokens.usernamesByEmail).toHaveBeenCalledWith(
        'kid_test',
        'Ana@Example.org',
      );
      expect(tokens.takeMailTurn).toHaveBeenCalledWith(
        'kid_test',
        'forgot-username',
        'ana@example.org',
        clock.now(),
        60_000,
        TX,
      );
      expect(queued()).toEqual({
        appKey: 'kid_test',
        kind: 'forgot-username',
        to: 'Ana@Example.org',
        subject: 'Your username',
        text: expect.stringContaining('\n\n"ana"\n"ana2"\n'),
      });
    });

    it('mails nothing to an unknown address or within the quiet minute', async () => {
      tokens.usernamesByEmail.mockResolvedValue([]);
      await service.forgotUsername(appCaller(), { email: 'x@y.z' });
      expect(tokens.takeMailTurn).not.toHaveBeenCalled();
      tokens.usernamesByEmail.mockResolvedValue(['ana']);
      tokens.takeMailTurn.mockResolvedValue(false);
      await service.forgotUsername(appCaller(), { email: 'ana@example.org' });
      expect(outbox.enqueue).not.toHaveBeenCalled();
      expect(worker.kick).not.toHaveBeenCalled();
    });

    it('needs an address and app or master credentials', async () => {
      for (const body of [
        {},
        { email: '' },
        { email: ' ' },
        { email: 3 },
        'ana@example.org',
      ])
        await expect(
          service.forgotUsername(masterOf(), body),
        ).rejects.toMatchObject({
          code: MarketplaceErrorCode.IncompleteRequestBody,
        });
      await expect(
        service.forgotUsername(userCaller(ANA), { email: 'ana@example.org' }),
      ).rejects.toMatchObject({
        code: MarketplaceErrorCode.InsufficientCredentials,
      });
      expect(tokens.usernamesByEmail).not.toHaveBeenCalled();
    });
  });

  describe("the app's own mail (send-email, a Flex service's modules.email)", () => {
    const mail = {
      to: 'ana@example.org',
      subject: 'Your offer',
      body: 'Saved.',
    };

    it("queues plain text to one address for the master or a service's handed secret, without a base URL", async () => {
      delete options.publicBaseUrl;
      await service.sendAppEmail(
        { kind: 'master', app: testApp(), flexService: 'produce' },
        {
          ...mail,
          from: 'spoof@else.test',
          replyTo: null,
          cc: null,
          bcc: null,
          html: null,
        },
      );
      expect(queued()).toEqual({
        appKey: 'kid_test',
        kind: 'app',
        to: 'ana@example.org',
        subject: 'Your offer',
        text: 'Saved.',
      });
    });

    it('refuses users, app credentials and what it cannot send, queuing nothing', async () => {
      const refusals: Array<[() => Promise<void>, MarketplaceErrorCode]> = [
        [
          () => service.sendAppEmail(userCaller(ANA), mail),
          MarketplaceErrorCode.InsufficientCredentials,
        ],
        [
          () => service.sendAppEmail(appCaller(), mail),
          MarketplaceErrorCode.InsufficientCredentials,
        ],
        [
          () =>
            service.sendAppEmail(masterOf(), { ...mail, cc: 'b@example.org' }),
          MarketplaceErrorCode.FeatureUnavailable,
        ],
        [
          () => service.sendAppEmail(masterOf(), { ...mail, html: '<b>x</b>' }),
          MarketplaceErrorCode.FeatureUnavailable,
        ],
        [
          () =>
            service.sendAppEmail(masterOf(), {
              ...mail,
              to: 'a@example.org, b@example.org',
            }),
          MarketplaceErrorCode.BadRequest,
        ],
        [
          () =>
            service.sendAppEmail(masterOf(), {
              ...mail,
              subject: 'x\r\nBcc: b@example.org',
            }),
          MarketplaceErrorCode.BadRequest,
        ],
        [
          () =>
            service.sendAppEmail(masterOf(), {
              ...mail,
              body: 'x'.repeat(64 * 1024 + 1),
            }),
          MarketplaceErrorCode.BadRequest,
        ],
      ];
      for (const [attempt, code] of refusals)
        await expect(attempt()).rejects.toMatchObject({ code });
      mailOn = false;
      await expect(
        service.sendAppEmail(masterOf(), mail),
      ).rejects.toMatchObject({
        code: MarketplaceErrorCode.FeatureUnavailable,
      });
      expect(outbox.enqueue).not.toHaveBeenCalled();
    });

    it("answers TooManyRequests past the app's mail limits", async () => {
      outbox.withinLimits.mockResolvedValue(false);
      await expect(
        service.sendAppEmail(masterOf(), mail),
      ).rejects.toMatchObject({
        code: MarketplaceErrorCode.TooManyRequests,
      });
      expect(outbox.enqueue).not.toHaveBeenCalled();
    });
  });
});
