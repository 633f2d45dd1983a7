import { SmtpSink, freePort } from '@quitanda/testing';
import type { ReceivedMail } from '@quitanda/testing';
import {
  Acl,
  Aggregation,
  CustomEndpoint,
  DataStore,
  DataStoreType,
  Errors,
  Files,
  Kmd,
  Query,
  User,
  ping,
} from 'kinvey-js-sdk';
import request from 'supertest';

import { runCli } from '../support/gateway-process';
import { startTestGateway } from '../support/test-gateway';
import type { TestGateway } from '../support/test-gateway';
import { initKinveySdk } from './kinvey-js-sdk-platform';
import type { SentRequest } from './kinvey-js-sdk-platform';
import { mailedLink, submitMailedLink } from './marketplace-support';

interface Task {
  _id?: string;
  title: string;
  n: number;
  tag: string;
  _kmd?: Record<string, unknown>;
}

/**
 * A Kinvey app moving in: an app the operator made with the CLI, driven by
 * Kinvey's own kinvey-js-sdk 7.0.0 through its public API (its requests,
 * its parsing of the answers, its error classes), end to end.
 */
describe('an app on kinvey-js-sdk 7.0.0 (e2e)', () => {
  let gw: TestGateway;
  let smtp: SmtpSink;
  let app: { appKey: string; appSecret: string; masterSecret: string };
  let sent: SentRequest[];

  beforeAll(async () => {
    smtp = await SmtpSink.start();
    // Account mail's links are built only on the configured base, so the
    // gateway is told where it listens.
    const port = await freePort();
    gw = await startTestGateway({
      SMTP_URL: smtp.url,
      ALERTS_FROM: 'Todo <accounts@todo.test>',
      PORT: String(port),
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    });
    const env = { DATABASE_URL: gw.databaseUrl, DATA_DIR: gw.dataDir };
    const created = await runCli(
      ['marketplace:apps:create', '--name', 'Todo', '--definition', 'none'],
      env,
    );
    expect(created.stderr).toBe('');
    app = JSON.parse(created.stdout);
    // Before the gateway first sees the app, so no cached settings linger.
    expect(
      await runCli(
        [
          'marketplace:apps:create-collections-on-write',
          '--app',
          app.appKey,
          'on',
        ],
        env,
      ),
    ).toMatchObject({ code: 0, stderr: '' });
    // The operator's REST API, as the CLI's collections:create (one CLI
    // process fewer: each takes seconds to load the gateway).
    for (const [name, settings] of [
      [
        'books',
        {
          schema: { type: 'object', required: ['title'] },
          unique: [{ field: 'title' }],
        },
      ],
      // Pulled by delta sets, which a collection has only when turned on.
      ['notes', { deltaSet: true }],
      ['shelf', { deltaSet: true }],
    ] as const)
      await request(gw.url)
        .post(`/admin/${app.appKey}/collections`)
        .auth(app.appKey, app.masterSecret)
        .send({ name, settings })
        .expect(201);
    ({ sent } = initKinveySdk(gw.url, app));
  }, 120_000);

  afterAll(async () => {
    await gw?.close();
    await smtp?.close();
  });

  const raw = () => request(gw.url);
  const sessionOf = async () =>
    `Kinvey ${(await User.getActiveUser())?.authtoken as string}`;
  /** What the SDK sent from now on. */
  const watch = () => {
    const from = sent.length;
    return () => sent.slice(from);
  };
  async function loginAs(username: string, password: string) {
    if (await User.getActiveUser()) await User.logout();
    return User.login(username, password);
  }
  /** The next mail to arrive from now on. */
  const nextMail = () => {
    const before = smtp.messages.length;
    return async () => (await smtp.waitFor(before + 1))[before] as ReceivedMail;
  };

  it('pings, and signs up an implicit user that logs in with its generated pair and out again', async () => {
    await expect(ping()).resolves.toMatchObject({
      kinvey: 'hello Todo',
      appName: 'Todo',
    });
    // No credentials at all: the SDK sends no body.
    const implicit = await User.signup({});
    const { username, password } = implicit.data as {
      username: string;
      password: string;
    };
    expect(username).toEqual(expect.any(String));
    expect(password).toEqual(expect.any(String));
    const user = await User.login(username, password);
    expect(user._id).toBe(implicit._id);
    expect(await User.getActiveUser()).toMatchObject({ _id: implicit._id });
    await expect(User.me()).resolves.toMatchObject({ username });
    const token = await sessionOf();
    await User.logout();
    await expect(User.getActiveUser()).resolves.toBeNull();
    await raw()
      .get(`/user/${app.appKey}/_me`)
      .set('Authorization', token)
      .expect(401);
  });

  it('signs up a user with a password, checks that it exists, logs in and updates itself', async () => {
    await User.signup({
      username: 'ana',
      password: 'correct horse battery',
      email: 'ana@todo.test',
    });
    await expect(User.exists('ana')).resolves.toBe(true);
    await expect(User.exists('nobody')).resolves.toBe(false);
    await expect(
      User.signup({ username: 'ana', password: 'another one' }),
    ).rejects.toBeInstanceOf(Errors.UserAlreadyExistsError);
    await expect(User.login('ana', 'wrong password')).rejects.toBeInstanceOf(
      Errors.InvalidCredentialsError,
    );
    const ana = await User.login('ana', 'correct horse battery');
    await ana.update({ name: 'Ana' });
    // The update's reply is the new session: the SDK still has a user.
    await expect(User.me()).resolves.toMatchObject({
      data: expect.objectContaining({ name: 'Ana' }),
    });
    const found = await User.lookup(
      new Query().equalTo('username', 'ana'),
    ).toPromise();
    expect(found).toEqual([
      expect.objectContaining({ _id: ana._id, name: 'Ana' }),
    ]);
    expect(found[0].password).toBeUndefined();
  });

  it('creates, reads, queries, updates and deletes records of a collection nobody declared', async () => {
    const tasks = DataStore.collection('tasks', DataStoreType.Network);
    const saved: Task[] = [];
    for (const [n, tag] of [
      [3, 'home'],
      [1, 'work'],
      [4, 'home'],
      [2, 'work'],
      [5, 'home'],
    ] as const)
      saved.push(await tasks.save({ title: `task ${n}`, n, tag }));
    expect(saved[0]?._id).toMatch(/^[0-9a-f]{24}$/);
    // An array is one multi-insert request (API version 6).
    const many = await tasks.create([
      { title: 'extra 6', n: 6, tag: 'extra' },
      { title: 'extra 7', n: 7, tag: 'extra' },
    ]);
    expect(many).toEqual({
      entities: [
        expect.objectContaining({ n: 6 }),
        expect.objectContaining({ n: 7 }),
      ],
      errors: [],
    });
    const ns = async (q: Query) =>
      ((await tasks.find(q).toPromise()) as Task[]).map((t) => t.n).sort();
    await expect(ns(new Query().matches('title', '^extra'))).resolves.toEqual([
      6, 7,
    ]);
    await expect(ns(new Query().contains('n', [1, 7, 9]))).resolves.toEqual([
      1, 7,
    ]);
    // or() returns the query it joined; the one it was called on holds $or.
    const either = new Query().equalTo('n', 2);
    either.or(new Query().greaterThanOrEqualTo('n', 7));
    await expect(ns(either)).resolves.toEqual([2, 7]);
    await expect(
      tasks.remove(new Query().equalTo('tag', 'extra')),
    ).resolves.toEqual({ count: 2 });

    const query = new Query().equalTo('tag', 'home').greaterThan('n', 3);
    const found: Task[] = await tasks.find(query).toPromise();
    expect(found.map((t) => t.n).sort()).toEqual([4, 5]);

    const paged = new Query().ascending('n');
    paged.limit = 2;
    paged.skip = 1;
    paged.fields = ['title'];
    const page: Task[] = await tasks.find(paged).toPromise();
    expect(page.map((t) => t.title)).toEqual(['task 2', 'task 3']);
    expect(page[0]?.n).toBeUndefined();

    await expect(
      tasks.count(new Query().equalTo('tag', 'work')).toPromise(),
    ).resolves.toBe(2);
    const one = saved[0] as Task;
    await expect(tasks.findById(one._id).toPromise()).resolves.toMatchObject({
      title: 'task 3',
    });
    const updated: Task = await tasks.save({ ...one, title: 'task three' });
    expect(updated).toMatchObject({ _id: one._id, title: 'task three' });

    await expect(tasks.removeById(one._id)).resolves.toEqual({ count: 1 });
    await expect(tasks.findById(one._id).toPromise()).rejects.toBeInstanceOf(
      Errors.NotFoundError,
    );
    await expect(
      tasks.remove(new Query().equalTo('tag', 'work')),
    ).resolves.toEqual({ count: 2 });
    await expect(tasks.count().toPromise()).resolves.toBe(2);
  });

  it("applies the rules of the collection the operator declared, as the SDK's own errors", async () => {
    const books = DataStore.collection('books', DataStoreType.Network);
    await books.save({ title: 'Dune', year: 1965 });
    await expect(books.save({ year: 1966 })).rejects.toBeInstanceOf(
      Errors.IncompleteRequestBodyError,
    );
    // 7.0.0 has no class of its own for DuplicateEntity: its base error.
    const duplicate = books.save({ title: 'Dune' });
    await expect(duplicate).rejects.toBeInstanceOf(Errors.KinveyError);
    await expect(duplicate).rejects.toMatchObject({
      name: 'KinveyError',
      debug: expect.stringContaining('title'),
    });
  });

  it("answers a custom endpoint the app never had with the SDK's NotFoundError", async () => {
    await expect(
      CustomEndpoint.execute('nothing-here', { a: 1 }),
    ).rejects.toBeInstanceOf(Errors.NotFoundError);
  });

  it('aggregates: counts by key, sums, finds the minimum, maximum and average', async () => {
    const scores = DataStore.collection('scores', DataStoreType.Network);
    for (const [team, points] of [
      ['red', 3],
      ['red', 5],
      ['blue', 10],
    ] as const)
      await scores.save({ team, points });
    const byTeam = await scores.group(Aggregation.count('team')).toPromise();
    expect(byTeam).toEqual(
      expect.arrayContaining([
        { team: 'red', count: 2 },
        { team: 'blue', count: 1 },
      ]),
    );
    const red = (aggregation: Aggregation) => {
      aggregation.query = new Query().equalTo('team', 'red');
      return scores.group(aggregation).toPromise();
    };
    await expect(red(Aggregation.sum('points'))).resolves.toEqual([{ sum: 8 }]);
    await expect(red(Aggregation.min('points'))).resolves.toEqual([{ min: 3 }]);
    await expect(red(Aggregation.max('points'))).resolves.toEqual([{ max: 5 }]);
    await expect(red(Aggregation.average('points'))).resolves.toEqual([
      { count: 2, average: 4 },
    ]);
  });

  it('pulls with delta sets: only what changed and what was deleted since the last pull', async () => {
    const network = DataStore.collection('notes', DataStoreType.Network);
    const kept = await network.save({ text: 'kept' });
    const changed = await network.save({ text: 'before' });
    const gone = await network.save({ text: 'gone' });
    const local = DataStore.collection('notes', DataStoreType.Sync, {
      useDeltaSet: true,
    });
    await expect(local.pull()).resolves.toBe(3);

    await network.save({ ...changed, text: 'after' });
    await network.removeById(gone._id);
    const added = await network.save({ text: 'added' });
    const requests = watch();
    await expect(local.pull()).resolves.toBe(2);
    expect(requests()).toEqual([
      {
        method: 'GET',
        path: expect.stringMatching(
          /^\/appdata\/kid_\w+\/notes\/_deltaset\?since=/,
        ),
      },
    ]);
    const cached: { _id: string; text: string }[] = await local
      .find()
      .toPromise();
    expect(cached.map((n) => [n._id, n.text]).sort()).toEqual(
      [
        [kept._id, 'kept'],
        [changed._id, 'after'],
        [added._id, 'added'],
      ].sort(),
    );
  });

  it('syncs: records saved offline are pushed with server ids, and pulled back', async () => {
    const journal = DataStore.collection('journal', DataStoreType.Sync);
    const requests = watch();
    const first = await journal.save({ day: 1, text: 'offline' });
    await journal.save({ day: 2, text: 'offline too' });
    await journal.removeById(first._id);
    await journal.save({ day: 3, text: 'and this' });
    expect(requests()).toEqual([]);
    expect(first._kmd).toMatchObject({ local: true });
    await expect(journal.pendingSyncCount()).resolves.toBe(2);

    const pushed = await journal.push();
    expect(pushed).toHaveLength(2);
    for (const result of pushed) expect(result.error).toBeUndefined();
    await expect(journal.pendingSyncCount()).resolves.toBe(0);

    const online = await DataStore.collection('journal', DataStoreType.Network)
      .find(new Query().ascending('day'))
      .toPromise();
    expect(online.map((e: { day: number }) => e.day)).toEqual([2, 3]);
    expect(online[0]._id).toMatch(/^[0-9a-f]{24}$/);

    await journal.clear();
    await expect(journal.sync()).resolves.toEqual({ push: [], pull: 2 });
    const local = await journal.find(new Query().ascending('day')).toPromise();
    expect(local.map((e: { _id: string }) => e._id)).toEqual(
      online.map((e: { _id: string }) => e._id),
    );

    // Offline changes to records the server has go back as PUT and DELETE.
    await journal.save({ ...local[0], text: 'edited offline' });
    await journal.removeById(local[1]._id);
    const pushing = watch();
    await journal.push();
    expect(
      pushing()
        .map((r) => r.method)
        .sort(),
    ).toEqual(['DELETE', 'PUT']);
    const after = await DataStore.collection('journal', DataStoreType.Network)
      .find()
      .toPromise();
    expect(after).toEqual([
      expect.objectContaining({ _id: local[0]._id, text: 'edited offline' }),
    ]);
  });

  it('reads through a Cache store (cache first, then the network) and pulls page by page', async () => {
    const cached = DataStore.collection('pages', DataStoreType.Cache);
    const network = DataStore.collection('pages', DataStoreType.Network);
    for (let i = 0; i < 5; i += 1) await network.save({ i });
    const emitted: number[] = [];
    await new Promise<void>((resolve, reject) =>
      cached
        .find()
        .subscribe(
          (docs: unknown[]) => emitted.push(docs.length),
          reject,
          resolve,
        ),
    );
    expect(emitted).toEqual([0, 5]);

    const paged = DataStore.collection('pages', DataStoreType.Sync, {
      tag: 'paged',
    });
    const requests = watch();
    await expect(
      paged.pull(new Query(), { autoPagination: { pageSize: 2 } }),
    ).resolves.toBe(5);
    const paths = requests().map((r) => decodeURIComponent(r.path));
    expect(paths[0]).toMatch(/\/pages\/_count/);
    expect(paths.slice(1).sort()).toEqual(
      ['limit=2', 'limit=2&skip=2', 'limit=1&skip=4']
        .map((page) => `/appdata/${app.appKey}/pages?${page}`)
        .sort(),
    );
  });

  it('uploads a file, reads its metadata and downloads it, then removes it', async () => {
    const bytes = 'Kinvey files, resumable upload and signed download.';
    const file = await Files.upload(Buffer.from(bytes), {
      filename: 'readme.txt',
      mimeType: 'text/plain',
      size: Buffer.byteLength(bytes),
    });
    expect(file).toMatchObject({
      _filename: 'readme.txt',
      mimeType: 'text/plain',
    });
    // findById downloads the bytes; the metadata is a download as a stream.
    await expect(Files.findById(file._id)).resolves.toBe(bytes);
    const meta = await Files.download(file._id, { stream: true });
    expect(meta._downloadURL).toEqual(expect.any(String));
    await expect(Files.downloadByUrl(meta._downloadURL)).resolves.toBe(bytes);
    const listed = await Files.find(
      new Query().equalTo('_filename', 'readme.txt'),
    );
    expect(listed.map((f: { _id: string }) => f._id)).toEqual([file._id]);
    // A record pointing at the file gets it expanded, with its download URL.
    const docs = DataStore.collection('docs', DataStoreType.Network);
    const doc = await docs.save({
      name: 'with file',
      file: { _type: 'KinveyFile', _id: file._id },
    });
    const read = await docs.findById(doc._id).toPromise();
    expect(read.file).toMatchObject({
      _id: file._id,
      _filename: 'readme.txt',
      _downloadURL: expect.any(String),
    });
    await expect(Files.downloadByUrl(read.file._downloadURL)).resolves.toBe(
      bytes,
    );

    await expect(Files.removeById(file._id)).resolves.toEqual({ count: 1 });
    await expect(Files.findById(file._id)).rejects.toBeInstanceOf(
      Errors.NotFoundError,
    );
  });

  it("keeps a record to its readers by the _acl the SDK's Acl sets, and dates it in _kmd", async () => {
    const diary = DataStore.collection('diary', DataStoreType.Network);
    const entry = await diary.save({ _id: 'ana-diary-1', text: 'private' });
    expect(entry._id).toBe('ana-diary-1');
    const kmd = new Kmd(entry);
    expect(kmd.createdAt?.getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(kmd.updatedAt).toEqual(kmd.createdAt);
    new Acl(entry).globallyReadable = false;
    await diary.save(entry);

    await User.logout();
    const bob = await User.signup({
      username: 'bob',
      password: 'bob password',
    });
    await User.login('bob', 'bob password');
    await expect(diary.find().toPromise()).resolves.toEqual([]);
    // Not InvalidCredentials: on that one the SDK would log bob out.
    await expect(
      diary.findById('ana-diary-1').toPromise(),
    ).rejects.toBeInstanceOf(Errors.InsufficientCredentialsError);
    await expect(User.getActiveUser()).resolves.toMatchObject({
      username: 'bob',
    });

    await loginAs('ana', 'correct horse battery');
    new Acl(entry).addReader(bob._id);
    await diary.save(entry);
    await loginAs('bob', 'bob password');
    await expect(
      diary.findById('ana-diary-1').toPromise(),
    ).resolves.toMatchObject({ text: 'private' });
    await expect(
      diary.save({ ...entry, text: 'bob was here' }),
    ).rejects.toBeInstanceOf(Errors.InsufficientCredentialsError);
    await loginAs('ana', 'correct horse battery');
  });

  it('saves and reads through an Auto store, pulling a query by delta sets', async () => {
    const auto = DataStore.collection('shelf', DataStoreType.Auto, {
      useDeltaSet: true,
    });
    const saved = await auto.save({ kind: 'jar', n: 1 });
    await expect(auto.find()).resolves.toEqual([
      expect.objectContaining({ _id: saved._id, n: 1 }),
    ]);
    const jars = new Query().equalTo('kind', 'jar');
    await expect(auto.pull(jars)).resolves.toBe(1);
    await DataStore.collection('shelf', DataStoreType.Network).save({
      kind: 'jar',
      n: 2,
    });
    const requests = watch();
    await expect(auto.pull(jars)).resolves.toBe(1);
    expect(requests().map((r) => decodeURIComponent(r.path))).toEqual([
      expect.stringMatching(/\/shelf\/_deltaset\?since=.*"kind":"jar"/),
    ]);
    await expect(auto.count()).resolves.toBe(2);
  });

  it('verifies the e-mail address through the mailed link', async () => {
    await loginAs('ana', 'correct horse battery');
    const mail = nextMail();
    await User.verifyEmail('ana');
    await submitMailedLink(raw(), mailedLink(await mail())).expect(200);
    const me = await User.me();
    expect(me.isEmailVerified()).toBe(true);
  });

  it('mails a forgotten username', async () => {
    const mail = nextMail();
    await User.forgotUsername('ana@todo.test');
    const received = await mail();
    expect(received.to).toEqual(['ana@todo.test']);
    expect(received.raw).toContain('ana');
  });

  it('resets a password through the mailed link: the old sessions end, the new password logs in', async () => {
    const session = await sessionOf();
    const mail = nextMail();
    await User.resetPassword('ana');
    const link = mailedLink(await mail());
    await raw()
      .post(link.pathname)
      .type('form')
      .send({
        token: link.searchParams.get('token'),
        password: 'a new password',
      })
      .expect(200);
    await raw()
      .get(`/user/${app.appKey}/_me`)
      .set('Authorization', session)
      .expect(401);
    await expect(
      loginAs('ana', 'correct horse battery'),
    ).rejects.toBeInstanceOf(Errors.InvalidCredentialsError);
    await expect(loginAs('ana', 'a new password')).resolves.toMatchObject({
      username: 'ana',
    });
  });

  it('logs out everywhere: invalidating tokens ends every session of the user', async () => {
    await loginAs('ana', 'a new password');
    const here = await sessionOf();
    const elsewhere = await raw()
      .post(`/user/${app.appKey}/login`)
      .auth(app.appKey, app.appSecret)
      .send({ username: 'ana', password: 'a new password' })
      .expect(200);
    const requests = watch();
    await User.invalidateTokens();
    expect(requests()).toEqual([
      { method: 'DELETE', path: expect.stringMatching(/\/tokens$/) },
    ]);
    await expect(User.getActiveUser()).resolves.toBeNull();
    for (const auth of [here, `Kinvey ${elsewhere.body._kmd.authtoken}`])
      await raw()
        .get(`/user/${app.appKey}/_me`)
        .set('Authorization', auth)
        .expect(401);
  });
});
