import type { TestingModule } from '@nestjs/testing';
import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import { marketplaceTestModule } from '../../testing/marketplace-test-module';
import { MarketplaceDatabase } from '../persistence/marketplace-database';
import { AccountMailRepository } from './account-mail.repository';
import type { QueuedMail } from './account-mail.repository';

const NOW = new Date('2026-11-26T10:00:00.000Z');
const LIMITS = { perAddressPerHour: 2, perAppPerHour: 3 };

describe('account mail limits (database)', () => {
  let database: TestDatabase;
  let module: TestingModule;
  let outbox: AccountMailRepository;
  let db: MarketplaceDatabase;

  beforeAll(async () => {
    database = await openTestDatabase();
    module = await marketplaceTestModule(database.url, [AccountMailRepository]);
    outbox = module.get(AccountMailRepository);
    db = module.get(MarketplaceDatabase);
  });

  afterAll(async () => {
    await module?.close();
    await database?.close();
  });

  /** Queues a mail to `to` if the limits allow, as the service does. */
  const queue = (appKey: string, to: string, now = NOW) => {
    const mail: QueuedMail = {
      appKey,
      kind: 'password-reset',
      to,
      subject: 'Reset your password',
      text: 'link',
    };
    return db.transaction(async (tx) => {
      if (!(await outbox.withinLimits(mail, now, LIMITS, tx))) return false;
      await outbox.enqueue(mail, now, tx);
      return true;
    });
  };

  it('lets concurrent requests queue only as many mails to an address as its limit, in any case', async () => {
    const queued = await Promise.all(
      ['a@x.org', 'A@X.org', 'a@X.ORG', 'a@x.org', 'A@x.org'].map((to) =>
        queue('kid_limits_a', to),
      ),
    );
    expect(queued.filter(Boolean)).toHaveLength(LIMITS.perAddressPerHour);
    // The same address in another app has its own count.
    await expect(queue('kid_limits_b', 'a@x.org')).resolves.toBe(true);
  });

  it('limits an app across addresses, and counts only the last hour', async () => {
    const app = 'kid_limits_c';
    for (const to of ['b@x.org', 'c@x.org', 'd@x.org'])
      await expect(queue(app, to)).resolves.toBe(true);
    await expect(queue(app, 'e@x.org')).resolves.toBe(false);
    const hourLater = new Date(NOW.getTime() + 3_600_000);
    await expect(queue(app, 'e@x.org', hourLater)).resolves.toBe(true);
  });
});
