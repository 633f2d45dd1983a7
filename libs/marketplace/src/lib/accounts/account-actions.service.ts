import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, hashPassword, hashToken, randomToken } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { requireMaster } from '../auth/access';
import { CredentialsRepository } from '../auth/credentials.repository';
import type { Principal } from '../auth/principal';
import { SessionCache } from '../auth/session-cache';
import { isPlainObject } from '../kinvey/kinvey-doc';
import {
  DEFAULT_MAIL_PER_ADDRESS_PER_HOUR,
  DEFAULT_MAIL_PER_APP_PER_HOUR,
  MARKETPLACE_OPTIONS,
} from '../common/marketplace.constants';
import { MarketplaceError } from '../common/marketplace.errors';
import type { MarketplaceModuleOptions } from '../common/marketplace.options';
import {
  isCurrentAddress,
  verificationConfirmed,
  verificationSent,
} from '../users/email-verification';
import { isMailbox, mailboxOf } from '../users/mailbox';
import { MarketplaceDatabase } from '../persistence/marketplace-database';
import type { MarketplaceTx } from '../persistence/marketplace-database';
import { checkUserBody } from '../users/user-fields';
import { UsersRepository } from '../users/users.repository';
import { linkMail, usernamesMail } from './account-mail-content';
import { AccountMailer } from './account-mailer';
import { AccountMailRepository } from './account-mail.repository';
import type { MailLimits, QueuedMail } from './account-mail.repository';
import { AccountMailWorker } from './account-mail.worker';
import { TOKEN_LIFETIME_MS } from './account-token-lifetime';
import { AccountTokensRepository } from './account-tokens.repository';
import type { AccountTokenKind } from './account-tokens.repository';

/**
 * One mail of a kind per user in this time: app credentials are public, so
 * anyone could otherwise mail a user reset links without end.
 */
const MAIL_QUIET_MS = 60_000;
/** An app's own mail: one header line of subject, a page or so of text. */
const MAX_SUBJECT_LENGTH = 200;
const MAX_APP_MAIL_TEXT = 64 * 1024;

/** Where the pages of mailed links live, under the gateway's base URL. */
export const ACCOUNT_PAGES = {
  'password-reset': 'password-reset',
  'email-verification': 'verify-email',
} as const;

/**
 * Kinvey's account e-mail: password reset, e-mail verification and
 * forgotten usernames, mailed with single-use, expiring, hashed tokens.
 * Mail is queued in the transaction that decides it and sent by the
 * worker, so an answer never waits on SMTP.
 */
@Injectable()
export class AccountActionsService {
  private readonly limits: MailLimits;

  constructor(
    private readonly mailer: AccountMailer,
    private readonly outbox: AccountMailRepository,
    private readonly worker: AccountMailWorker,
    private readonly db: MarketplaceDatabase,
    private readonly tokens: AccountTokensRepository,
    private readonly users: UsersRepository,
    private readonly credentials: CredentialsRepository,
    private readonly sessions: SessionCache,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(MARKETPLACE_OPTIONS)
    private readonly options: MarketplaceModuleOptions,
  ) {
    this.limits = {
      perAddressPerHour:
        options.mailPerAddressPerHour ?? DEFAULT_MAIL_PER_ADDRESS_PER_HOUR,
      perAppPerHour: options.mailPerAppPerHour ?? DEFAULT_MAIL_PER_APP_PER_HOUR,
    };
  }

  /**
   * SMTP, and the base of the links: only the configured one, since a
   * request's Host header is the caller's choice (a reset link on it hands
   * the token to whoever sent the request).
   */
  private requireMail(what: string): string {
    if (!this.mailer.enabled) throw MarketplaceError.needsInfrastructure(what);
    const base = this.options.publicBaseUrl;
    if (!base) throw MarketplaceError.accountMailNeedsBaseUrl(what);
    return base;
  }

  /**
   * Queues a mail in one transaction with what `decide` writes (a token, a
   * turn of the limit), unless the limits per address and app or `decide`
   * refuse; then wakes the worker. The caller answers alike either way.
   */
  private async queue(
    mail: QueuedMail,
    decide: (tx: MarketplaceTx) => Promise<boolean>,
  ): Promise<boolean> {
    const now = this.clock.now();
    const queued = await this.db.transaction(async (tx) => {
      if (!(await this.outbox.withinLimits(mail, now, this.limits, tx)))
        return false;
      if (!(await decide(tx))) return false;
      await this.outbox.enqueue(mail, now, tx);
      return true;
    });
    if (queued) this.worker.kick();
    return queued;
  }

  private async mailLink(
    kind: AccountTokenKind,
    appKey: string,
    userId: string,
    email: string,
    base: string,
  ): Promise<boolean> {
    const token = randomToken(24);
    const now = this.clock.now();
    const link = `${base}/account/${appKey}/${ACCOUNT_PAGES[kind]}?token=${token}`;
    // Answered alike either way: the caller learns nothing of the user.
    return this.queue(
      { appKey, kind, to: email, ...linkMail(kind, link) },
      (tx) =>
        this.tokens.insert(
          hashToken(token),
          kind,
          { appKey, userId, email },
          new Date(now.getTime() + TOKEN_LIFETIME_MS),
          now,
          MAIL_QUIET_MS,
          tx,
        ),
    );
  }

  /** 204 whether or not the user exists: the answer tells no one who does. */
  async initiatePasswordReset(
    principal: Principal,
    username: string,
  ): Promise<void> {
    const base = this.requireMail('Password reset');
    if (principal.kind === 'user')
      throw MarketplaceError.insufficient('needs app or master credentials');
    const appKey = principal.app.appKey;
    const user = await this.credentials.findByUsername(appKey, username);
    const email = user && !user.disabled ? mailboxOf(user.doc) : undefined;
    if (user && email)
      await this.mailLink('password-reset', appKey, user.id, email, base);
  }

  async initiateEmailVerification(
    principal: Principal,
    username: string,
  ): Promise<void> {
    const base = this.requireMail('E-mail verification');
    const appKey = principal.app.appKey;
    if (principal.kind === 'user' && principal.user.username !== username)
      throw MarketplaceError.insufficient(
        'users verify only their own address',
      );
    const user = await this.credentials.findByUsername(appKey, username);
    if (!user || user.disabled) throw MarketplaceError.userNotFound(username);
    const email = mailboxOf(user.doc);
    if (!email)
      throw MarketplaceError.badRequest(
        'The user has no e-mail address.',
        'email',
      );
    const mailed = await this.mailLink(
      'email-verification',
      appKey,
      user.id,
      email,
      base,
    );
    if (!mailed) return;
    await this.users.setEmailVerification(
      appKey,
      user.id,
      verificationSent(user.doc, email, this.clock.now()),
    );
    this.sessions.forgetUser(appKey, user.id);
  }

  /** Mails the usernames registered with the address; none: no mail. */
  async forgotUsername(principal: Principal, body: unknown): Promise<void> {
    this.requireMail('Forgot username');
    if (principal.kind === 'user')
      throw MarketplaceError.insufficient('needs app or master credentials');
    const given = isPlainObject(body) ? body['email'] : undefined;
    const email = typeof given === 'string' ? given.trim() : '';
    if (!email)
      throw MarketplaceError.incompleteBody('email is required.', 'email');
    // One mailbox: a list would mail every address on it.
    if (!isMailbox(email))
      throw MarketplaceError.badRequest(
        'email must be one e-mail address.',
        'email',
      );
    const appKey = principal.app.appKey;
    const usernames = await this.tokens.usernamesByEmail(appKey, email);
    if (usernames.length === 0) return;
    // Limited as the other account mail, per address (any case, as mail
    // systems deliver it), and answered alike either way.
    await this.queue(
      {
        appKey,
        kind: 'forgot-username',
        to: email,
        ...usernamesMail(usernames),
      },
      (tx) =>
        this.tokens.takeMailTurn(
          appKey,
          'forgot-username',
          email.toLowerCase(),
          this.clock.now(),
          MAIL_QUIET_MS,
          tx,
        ),
    );
  }

  /**
   * Kinvey's `send-email` (what a Flex service's `modules.email.send`
   * calls): the master's, or a service's with the secret it was handed.
   * Plain text to one address, from the configured sender (an app cannot
   * send as anyone else), queued within the app's mail limits.
   */
  async sendAppEmail(principal: Principal, body: unknown): Promise<void> {
    requireMaster(principal);
    if (!this.mailer.enabled)
      throw MarketplaceError.needsInfrastructure('E-mail');
    const fields = isPlainObject(body) ? body : {};
    for (const unsupported of ['cc', 'bcc', 'html'])
      if (fields[unsupported] !== undefined && fields[unsupported] !== null)
        throw MarketplaceError.featureUnavailable(
          unsupported,
          'This backend sends plain text e-mail to one address.',
        );
    const to = typeof fields['to'] === 'string' ? fields['to'].trim() : '';
    const subject = fields['subject'];
    const text = fields['body'];
    if (!isMailbox(to))
      throw MarketplaceError.badRequest('to must be one e-mail address.', 'to');
    if (
      typeof subject !== 'string' ||
      !subject.trim() ||
      subject.length > MAX_SUBJECT_LENGTH ||
      /[\r\n]/.test(subject)
    )
      throw MarketplaceError.badRequest(
        `subject is one line of 1 to ${MAX_SUBJECT_LENGTH} characters.`,
        'subject',
      );
    if (typeof text !== 'string' || text.length > MAX_APP_MAIL_TEXT)
      throw MarketplaceError.badRequest(
        `body is text of at most ${MAX_APP_MAIL_TEXT} characters.`,
        'body',
      );
    const queued = await this.queue(
      { appKey: principal.app.appKey, kind: 'app', to, subject, text },
      () => Promise.resolve(true),
    );
    if (!queued) throw MarketplaceError.tooMuchMail();
  }

  /** Whether a page's token still works (the page then shows its form). */
  async isLive(
    kind: AccountTokenKind,
    appKey: string,
    token: string,
  ): Promise<boolean> {
    return (await this.usable(kind, appKey, token)) !== undefined;
  }

  /** Sets the new password and ends every session of the user. */
  async completePasswordReset(
    appKey: string,
    token: string,
    password: string,
  ): Promise<boolean> {
    const user = await this.usable('password-reset', appKey, token);
    if (!user) return false;
    checkUserBody({ username: user.username, password }, false);
    const taken = await this.tokens.live(
      hashToken(token),
      'password-reset',
      appKey,
      this.clock.now(),
      true,
    );
    if (!taken) return false;
    await this.users.update(
      appKey,
      user.id,
      user.username,
      user.doc,
      await hashPassword(password),
      this.clock.now(),
    );
    await this.credentials.revokeAll(appKey, user.id);
    this.sessions.forgetUser(appKey, user.id);
    return true;
  }

  /** Records the confirmed address in `_kmd.emailVerification`. */
  async completeEmailVerification(
    appKey: string,
    token: string,
  ): Promise<boolean> {
    const now = this.clock.now();
    const taken = await this.tokens.live(
      hashToken(token),
      'email-verification',
      appKey,
      now,
      true,
    );
    if (!taken) return false;
    const user = await this.users.findById(appKey, taken.userId);
    // A link mailed to an address the user has since changed confirms nothing.
    if (!user || user.disabled || !isCurrentAddress(user.doc, taken.email))
      return false;
    await this.users.setEmailVerification(
      appKey,
      user.id,
      verificationConfirmed(taken.email, now),
    );
    this.sessions.forgetUser(appKey, user.id);
    return true;
  }

  private async usable(kind: AccountTokenKind, appKey: string, token: string) {
    const found = await this.tokens.live(
      hashToken(token),
      kind,
      appKey,
      this.clock.now(),
      false,
    );
    if (!found) return undefined;
    const user = await this.users.findById(appKey, found.userId);
    return user && !user.disabled ? user : undefined;
  }
}
