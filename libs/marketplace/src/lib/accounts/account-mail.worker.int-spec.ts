import type { TestingModule } from '@nestjs/testing';
import { FixedClock } from '@quitanda/kernel';
import { SmtpSink, openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import {
  marketplaceTestModule,
  sqlOf,
} from '../../testing/marketplace-test-module';
import { AccountMailer } from './account-mailer';
import { AccountMailRepository } from './account-mail.repository';
import type { QueuedMail } from './account-mail.repository';
import {
  ACCOUNT_MAIL_RETRY_DELAYS_MS,
  AccountMailWorker,
} from './account-mail.worker';

const MAIL: QueuedMail = {
  appKey: 'kid_outbox',
  kind: 'password-reset',
  to: 'Ana@example.org',
  subject: 'Reset your password',
  text: 'https://q.test/account/kid_outbox/password-reset?token=secret-token',
};

describe('the account mail outbox and its worker (database, SMTP)', () => {
  let database: TestDatabase;
  let module: TestingModule;
  let smtp: SmtpSink;
  let outbox: AccountMailRepository;
  let worker: AccountMailWorker;
  const clock = new FixedClock('2026-11-26T10:00:00.000Z');

  beforeAll(async () => {
    database = await openTestDatabase();
    smtp = await SmtpSink.start();
    module = await marketplaceTestModule(
      database.url,
      [AccountMailer, AccountMailRepository, AccountMailWorker],
      { mail: { smtpUrl: smtp.url, from: 'Quitanda <accounts@q.test>' } },
      clock,
    );
    outbox = module.get(AccountMailRepository);
    worker = module.get(AccountMailWorker);
  });

  afterAll(async () => {
    await module?.close();
    await smtp?.close();
    await database?.close();
  });

  /** What the outbox holds of a mail to `mailbox`. */
  const rows = (mailbox: string) =>
    sqlOf(module).rows<{ status: string; body: string | null }>(
      `SELECT status, body, attempts FROM marketplace.account_mail WHERE mailbox = $1`,
      [mailbox],
    );

  it('sends a queued mail and keeps no body once it is sent', async () => {
    await outbox.enqueue(MAIL, clock.now());
    await expect(worker.runOnce()).resolves.toBe(1);
    expect(smtp.messages.at(-1)?.to).toEqual(['Ana@example.org']);
    await expect(rows('ana@example.org')).resolves.toEqual([
      { status: 'sent', body: null, attempts: 1 },
    ]);
    await expect(worker.runOnce()).resolves.toBe(0);
  });

  it('retries a refused mail after its delay, then gives up after the last', async () => {
    const to = 'retry@example.org';
    await outbox.enqueue({ ...MAIL, to }, clock.now());
    smtp.refuse(1);
    const before = smtp.messages.length;
    await expect(worker.runOnce()).resolves.toBe(1);
    expect(smtp.messages).toHaveLength(before);
    // Not due again before its delay.
    clock.advance((ACCOUNT_MAIL_RETRY_DELAYS_MS[0] as number) - 1);
    await expect(worker.runOnce()).resolves.toBe(0);
    clock.advance(1);
    await expect(worker.runOnce()).resolves.toBe(1);
    expect(smtp.messages.at(-1)?.to).toEqual([to]);
    await expect(rows(to)).resolves.toEqual([
      { status: 'sent', body: null, attempts: 2 },
    ]);

    const lost = 'lost@example.org';
    await outbox.enqueue({ ...MAIL, to: lost }, clock.now());
    smtp.refuse(ACCOUNT_MAIL_RETRY_DELAYS_MS.length + 1);
    for (const delay of [0, ...ACCOUNT_MAIL_RETRY_DELAYS_MS]) {
      clock.advance(delay);
      await expect(worker.runOnce()).resolves.toBe(1);
    }
    await expect(rows(lost)).resolves.toEqual([
      {
        status: 'failed',
        body: null,
        attempts: ACCOUNT_MAIL_RETRY_DELAYS_MS.length + 1,
      },
    ]);
    expect(smtp.messages.map((mail) => mail.to)).not.toContainEqual([lost]);
  });

  it('gives up, unsent, a mail whose link has expired', async () => {
    const to = 'late@example.org';
    await outbox.enqueue({ ...MAIL, to }, clock.now());
    clock.advance(3_600_000);
    await expect(worker.runOnce()).resolves.toBe(0);
    await expect(rows(to)).resolves.toEqual([
      { status: 'failed', body: null, attempts: 0 },
    ]);
  });
});
