import { SmtpSink } from '@quitanda/testing';
import { Client } from 'pg';
import type { ReceivedMail } from '@quitanda/testing';

import {
  APP_AUTH,
  APP_KEY,
  MASTER_AUTH,
  basic,
  kinveyError,
  mailedLink,
  startMarketplace,
} from './marketplace-support';
import type { MarketplaceTest } from './marketplace-support';

const PUBLIC_BASE_URL = 'https://quitanda.test';

/** The text of a mail, its quoted-printable encoding undone. */
function quotedPrintable(mail: ReceivedMail): string {
  return mail.raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) =>
      String.fromCharCode(parseInt(hex, 16)),
    )
    .replace(/\r\n/g, '\n');
}
const MAIL_ENV = (smtp: SmtpSink) => ({
  SMTP_URL: smtp.url,
  ALERTS_FROM: 'Quitanda <accounts@quitanda.test>',
});

/** Password reset, e-mail verification and forgot username, through a real SMTP server. */
describe('marketplace account e-mail (e2e)', () => {
  let t: MarketplaceTest;
  let smtp: SmtpSink;

  beforeAll(async () => {
    smtp = await SmtpSink.start();
    t = await startMarketplace({ ...MAIL_ENV(smtp), PUBLIC_BASE_URL });
  });

  afterAll(async () => {
    await t?.gw.close();
    await smtp?.close();
  });

  const rpc = (path: string, auth = APP_AUTH) =>
    t.http.post(`/rpc/${APP_KEY}/${path}`).set('Authorization', auth);

  it('resets a password through the mailed single-use link, ending every session', async () => {
    const user = await t.signup('reset@example.com');
    const before = smtp.messages.length;
    await rpc('reset@example.com/user-password-reset-initiate').expect(204);
    // Unknown users get the same answer, and no mail.
    await rpc('nobody@example.com/user-password-reset-initiate').expect(204);
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    expect(mail?.to).toEqual(['reset@example.com']);
    const link = mailedLink(mail as ReceivedMail);
    const token = link.searchParams.get('token') as string;

    const form = await t.http.get(`${link.pathname}${link.search}`).expect(200);
    expect(form.headers['content-type']).toMatch(/text\/html/);
    expect(form.headers['referrer-policy']).toBe('no-referrer');
    expect(form.text).toContain('name="password"');

    const short = await t.http
      .post(link.pathname)
      .type('form')
      .send({ token, password: 'short' })
      .expect(400);
    expect(short.text).toContain('8 to 256');
    await t.http
      .post(link.pathname)
      .type('form')
      .send({ token, password: 'a fresh new password' })
      .expect(200);
    await t.http
      .get(`/user/${APP_KEY}/_me`)
      .set('Authorization', user.auth)
      .expect(401);
    await t.login('reset@example.com', 'a fresh new password').expect(200);
    await t.login('reset@example.com', 'correct horse battery').expect(401);

    // Single use: the link is dead now.
    await t.http.get(`${link.pathname}${link.search}`).expect(400);
    await t.http
      .post(link.pathname)
      .type('form')
      .send({ token, password: 'yet another password' })
      .expect(400);
    // A token stays in its app.
    await t.http
      .post(`/account/kid_someOtherApp0001/password-reset`)
      .type('form')
      .send({ token, password: 'yet another password' })
      .expect(400);
  });

  it('verifies an e-mail address: _kmd.emailVerification on the user', async () => {
    const user = await t.signup('verify@example.com');
    const before = smtp.messages.length;
    await rpc(
      'verify@example.com/user-email-verification-initiate',
      user.auth,
    ).expect(204);
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    const link = mailedLink(mail as ReceivedMail);
    // Opening the link changes nothing (mail scanners open links).
    await t.http.get(`${link.pathname}${link.search}`).expect(200);
    const unconfirmed = await t.http
      .get(`/user/${APP_KEY}/_me`)
      .set('Authorization', user.auth)
      .expect(200);
    expect(unconfirmed.body._kmd.emailVerification).toMatchObject({
      status: 'sent',
      emailAddress: 'verify@example.com',
    });
    await t.http
      .post(link.pathname)
      .type('form')
      .send({ token: link.searchParams.get('token') })
      .expect(200);
    const me = await t.http
      .get(`/user/${APP_KEY}/_me`)
      .set('Authorization', user.auth)
      .expect(200);
    expect(me.body._kmd.emailVerification).toEqual({
      status: 'confirmed',
      lastStateChangeAt: expect.any(String),
      lastConfirmedAt: expect.any(String),
      emailAddress: 'verify@example.com',
    });
    // Another user may not ask for it.
    const other = await t.signup('other-verify@example.com');
    await rpc(
      'verify@example.com/user-email-verification-initiate',
      other.auth,
    ).expect(401);
  });

  it('forgets a confirmed address when the address changes, and a link mailed to the old one confirms nothing', async () => {
    /** A user whose address can be verified, read and changed. */
    const evanLike = async (username: string) => {
      const user = await t.signup(username, {
        email: `${username}@attacker.example`,
      });
      const me = async () =>
        (
          await t.http
            .get(`/user/${APP_KEY}/_me`)
            .set('Authorization', user.auth)
            .expect(200)
        ).body;
      return {
        me,
        async verify() {
          const before = smtp.messages.length;
          await rpc(
            `${username}/user-email-verification-initiate`,
            user.auth,
          ).expect(204);
          const [mail] = (await smtp.waitFor(before + 1)).slice(before);
          return mailedLink(mail as ReceivedMail);
        },
        async change(email: string) {
          await t.http
            .put(`/user/${APP_KEY}/${user.id}`)
            .set('Authorization', user.auth)
            .send({ ...(await me()), email })
            .expect(200);
        },
      };
    };
    const confirm = (link: URL) =>
      t.http
        .post(link.pathname)
        .type('form')
        .send({ token: link.searchParams.get('token') });

    const evan = await evanLike('evan');
    await confirm(await evan.verify()).expect(200);
    expect((await evan.me())._kmd.emailVerification.status).toBe('confirmed');
    // An update keeping the address keeps its confirmation.
    await evan.change('evan@attacker.example');
    expect((await evan.me())._kmd.emailVerification.status).toBe('confirmed');
    await evan.change('ceo@victim.example');
    expect((await evan.me())._kmd.emailVerification).toBeUndefined();

    const fred = await evanLike('fred');
    const stale = await fred.verify();
    await fred.change('cfo@victim.example');
    await confirm(stale).expect(400);
    expect((await fred.me())._kmd.emailVerification).toBeUndefined();
  });

  it('mails forgotten usernames to their address, and nothing when there are none', async () => {
    await t.signup('forgetful', { email: 'forgetful@example.com' });
    const before = smtp.messages.length;
    await rpc('user-forgot-username')
      .send({ email: 'nobody-here@example.com' })
      .expect(204);
    await rpc('user-forgot-username')
      .send({ email: 'forgetful@example.com' })
      .expect(204);
    const mails = (await smtp.waitFor(before + 1)).slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.to).toEqual(['forgetful@example.com']);
    expect(mails[0]?.raw).toContain('forgetful');
    // One a minute per address: a mail already went to it.
    await rpc('user-forgot-username')
      .send({ email: 'forgetful@example.com' })
      .expect(204);
    expect(smtp.messages).toHaveLength(before + 1);
    const missing = await rpc('user-forgot-username').send({}).expect(400);
    expect(missing.body).toEqual(kinveyError('IncompleteRequestBody'));
  });

  it('answers without waiting on SMTP: the mail is queued and sent after the answer', async () => {
    await t.signup('slow-smtp', { email: 'slow-smtp@example.com' });
    const before = smtp.messages.length;
    const release = smtp.hold();
    try {
      await rpc('slow-smtp/user-password-reset-initiate').expect(204);
      await rpc('user-forgot-username')
        .send({ email: 'slow-smtp@example.com' })
        .expect(204);
      expect(smtp.messages).toHaveLength(before);
    } finally {
      release();
    }
    const mails = (await smtp.waitFor(before + 2)).slice(before);
    expect(mails.map((mail) => mail.to)).toEqual([
      ['slow-smtp@example.com'],
      ['slow-smtp@example.com'],
    ]);
  });

  it('takes one mailbox as email: no list, no display name, at signup, update and forgot username', async () => {
    const list = Array.from({ length: 50 }, (_, i) => `v${i}@list.example`);
    for (const email of [
      list.join(', '),
      'v0@list.example;v1@list.example',
      'Ana <ana@list.example>',
      '"Ana" ana@list.example',
      'ana@list.example\r\nBcc: v1@list.example',
      'no-at-sign',
    ]) {
      const res = await t.http
        .post(`/user/${APP_KEY}`)
        .set('Authorization', APP_AUTH)
        .send({ username: 'relay', password: 'correct horse battery', email })
        .expect(400);
      expect(res.body).toEqual(kinveyError('BadRequest'));
      await rpc('user-forgot-username').send({ email }).expect(400);
    }
    // Nothing was created: the username is still free.
    const user = await t.signup('relay', { email: 'relay@list.example' });
    const me = await t.http
      .get(`/user/${APP_KEY}/_me`)
      .set('Authorization', user.auth)
      .expect(200);
    await t.http
      .put(`/user/${APP_KEY}/${user.id}`)
      .set('Authorization', user.auth)
      .send({ ...me.body, email: list.join(',') })
      .expect(400);
    await rpc('user-forgot-username')
      .send({ email: list.slice(0, 2).join(', ') })
      .expect(400);
    expect(smtp.messages.flatMap((mail) => mail.to)).not.toContain(list[1]);
  });

  it('mails a chosen username only as a quoted field', async () => {
    const phishing =
      'Your account is locked.\n\nCall +1 555 0100 or open http://evil.example/';
    await t.signup(phishing, { email: 'quoted@example.com' });
    const before = smtp.messages.length;
    await rpc('user-forgot-username')
      .send({ email: 'quoted@example.com' })
      .expect(204);
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    const text = quotedPrintable(mail as ReceivedMail);
    expect(text).toContain(JSON.stringify(phishing));
    expect(text).not.toContain('\nCall +1 555 0100');
  });

  it('limits mail per address, however many users share it', async () => {
    const victim = 'victim@limits.example';
    for (let i = 0; i < 10; i += 1)
      await t.signup(`sharer${i}`, { email: victim });
    for (let i = 0; i < 10; i += 1) {
      await rpc(`sharer${i}/user-password-reset-initiate`).expect(204);
      await rpc(`sharer${i}/user-email-verification-initiate`).expect(204);
    }
    // Every answer alike; what was queued for the address is the limit.
    const db = new Client({ connectionString: t.gw.databaseUrl });
    await db.connect();
    try {
      const queued = await db.query(
        'SELECT count(*)::int AS n FROM marketplace.account_mail WHERE mailbox = $1',
        [victim],
      );
      expect(queued.rows[0].n).toBe(5);
    } finally {
      await db.end();
    }
  });

  it('builds links on PUBLIC_BASE_URL, never on the request Host header', async () => {
    await t.signup('host@example.com');
    const before = smtp.messages.length;
    await rpc('host@example.com/user-password-reset-initiate')
      .set('Host', 'attacker.example:8080')
      .set('X-Forwarded-Host', 'attacker.example:8080')
      .expect(204);
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    expect(mailedLink(mail as ReceivedMail).origin).toBe(PUBLIC_BASE_URL);
  });

  it('needs credentials of the app', async () => {
    await t.http
      .post(`/rpc/${APP_KEY}/someone/user-password-reset-initiate`)
      .expect(401);
    await t.http
      .post(`/rpc/${APP_KEY}/someone/user-password-reset-initiate`)
      .set('Authorization', basic(APP_KEY, 'wrong'))
      .expect(401);
    await rpc('someone/user-password-reset-initiate', MASTER_AUTH).expect(204);
  });
});

describe('marketplace account e-mail without PUBLIC_BASE_URL (e2e)', () => {
  let t: MarketplaceTest;
  let smtp: SmtpSink;

  beforeAll(async () => {
    smtp = await SmtpSink.start();
    t = await startMarketplace(MAIL_ENV(smtp));
  });

  afterAll(async () => {
    await t?.gw.close();
    await smtp?.close();
  });

  it('refuses every account mail, naming the setting, rather than trust the Host header', async () => {
    const user = await t.signup('victim@example.com');
    const calls = [
      ['victim@example.com/user-password-reset-initiate', APP_AUTH],
      ['victim@example.com/user-email-verification-initiate', user.auth],
      ['user-forgot-username', APP_AUTH],
    ] as const;
    for (const [path, auth] of calls) {
      const res = await t.http
        .post(`/rpc/${APP_KEY}/${path}`)
        .set('Authorization', auth)
        .set('Host', 'attacker.example:8080')
        .send({ email: 'victim@example.com' })
        .expect(400);
      expect(res.body).toEqual(kinveyError('FeatureUnavailable'));
      expect(res.body.description).toContain('PUBLIC_BASE_URL');
    }
    expect(smtp.messages).toEqual([]);
  });
});
