import { GitbeakerRequestError, Gitlab } from '@gitbeaker/rest';

import {
  ROOT_TOKEN,
  sendRaw,
  startErrorTrackingGateway,
  unique,
} from './error-tracking-support';
import type { ErrorTrackingGateway } from './error-tracking-support';

/** The HTTP status a gitbeaker call failed with. */
async function failure(call: Promise<unknown>): Promise<number | undefined> {
  try {
    await call;
  } catch (error) {
    if (!(error instanceof GitbeakerRequestError)) throw error;
    return error.cause?.response?.status;
  }
  throw new Error('the call succeeded');
}

/**
 * @gitbeaker/rest 43, unchanged, against the real gateway: the JavaScript
 * GitLab client, including its own pagination (it follows `Link: rel="next"`
 * and reads GitLab's X- headers).
 */
describe('@gitbeaker/rest against the gateway (e2e)', () => {
  let gw: ErrorTrackingGateway;
  let api: InstanceType<typeof Gitlab<false>>;

  beforeAll(async () => {
    gw = await startErrorTrackingGateway();
    api = new Gitlab({ host: gw.url, token: ROOT_TOKEN });
  });

  afterAll(() => gw?.close());

  it('authenticates, with a header token, and refuses a bad one', async () => {
    const me = await api.Users.showCurrentUser();
    expect(me).toMatchObject({ username: 'root', is_admin: true });
    const stranger = new Gitlab({ host: gw.url, token: 'glpat-not-a-token' });
    expect(await failure(stranger.Users.showCurrentUser())).toBe(401);
  });

  it('creates users and their tokens, lists them across pages, revokes a token', async () => {
    const names = [0, 1, 2].map(() => unique('beaker'));
    const users = [];
    for (const username of names)
      users.push(
        await api.Users.create({
          username,
          name: username,
          email: `${username}@example.com`,
          password: 'correct horse battery',
        }),
      );
    const listed = await api.Users.all({ perPage: 2 });
    expect(listed.map((u) => u.username)).toEqual(
      expect.arrayContaining(names),
    );
    const user = users[0] as { id: number };
    const token = await api.Users.createPersonalAccessToken(user.id, 'beaker', [
      'read_api',
    ]);
    expect(token.token).toMatch(/^glpat-/);
    const asUser = new Gitlab({ host: gw.url, token: token.token as string });
    expect((await asUser.Users.showCurrentUser()).id).toBe(user.id);
    const own = await asUser.PersonalAccessTokens.all();
    expect(own.map((t) => t.id)).toEqual([token.id]);
    expect(await failure(asUser.Projects.create({ name: unique('no') }))).toBe(
      403,
    );
    // A read_api token cannot revoke itself; an admin revokes any token.
    await api.PersonalAccessTokens.remove({ tokenId: token.id });
    expect(await failure(asUser.Users.showCurrentUser())).toBe(401);
  });

  it('pages projects with offsets and keyset, and gets one by id or path', async () => {
    const created = [];
    for (let i = 0; i < 5; i += 1)
      created.push(await api.Projects.create({ name: unique('beaker') }));
    const all = await api.Projects.all({ perPage: 2 });
    const ids = all.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(created.map((p) => p.id)));
    const expanded = await api.Projects.all({
      pagination: 'offset',
      perPage: 2,
      page: 2,
      showExpanded: true,
    });
    expect(expanded.data.map((p) => p.id)).toEqual(ids.slice(2, 4));
    expect(expanded.paginationInfo).toMatchObject({
      total: ids.length,
      current: 2,
      previous: 1,
      perPage: 2,
      totalPages: Math.ceil(ids.length / 2),
    });
    const keyset = await api.Projects.all({
      pagination: 'keyset',
      orderBy: 'id',
      sort: 'asc',
      perPage: 2,
    });
    expect(keyset.map((p) => p.id)).toEqual([...ids].sort((a, b) => a - b));
    const first = created[0] as { id: number; path: string };
    expect((await api.Projects.show(first.path)).id).toBe(first.id);
  });

  it('manages members and issues', async () => {
    const project = await api.Projects.create({ name: unique('beaker') });
    const username = unique('member');
    const user = await api.Users.create({
      username,
      name: username,
      email: `${username}@example.com`,
    });
    await api.ProjectMembers.add(project.id, 30, { userId: user.id });
    const members = await api.ProjectMembers.all(project.id);
    expect(members).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: user.id, access_level: 30 }),
      ]),
    );
    expect(await api.ProjectMembers.show(project.id, user.id)).toMatchObject({
      username,
    });
    await api.ProjectMembers.remove(project.id, user.id);
    expect(await failure(api.ProjectMembers.show(project.id, user.id))).toBe(
      404,
    );

    const issue = await api.Issues.create(project.id, 'Checkout fails', {
      description: 'Seen in production.',
    });
    expect(issue).toMatchObject({ iid: 1, state: 'opened' });
    await api.Issues.edit(project.id, issue.iid, { stateEvent: 'close' });
    expect(
      await api.Issues.show(issue.iid, { projectId: project.id }),
    ).toMatchObject({ state: 'closed' });
    const closed = await api.Issues.all({
      projectId: project.id,
      state: 'closed',
    });
    expect(closed.map((i) => i.iid)).toEqual([issue.iid]);
  });

  it('enables error tracking and rotates the client key', async () => {
    const project = await api.Projects.create({ name: unique('beaker') });
    expect(await api.ErrorTrackingSettings.show(project.id)).toMatchObject({
      active: false,
      integrated: true,
    });
    expect(
      await api.ErrorTrackingSettings.create(project.id, true, true),
    ).toMatchObject({ active: true });
    expect(
      await api.ErrorTrackingSettings.edit(project.id, false),
    ).toMatchObject({ active: false });
    await api.ErrorTrackingSettings.edit(project.id, true);

    const [old] = await api.ErrorTrackingClientKeys.all(project.id);
    const fresh = await api.ErrorTrackingClientKeys.create(project.id);
    expect(fresh.public_key).toMatch(/^glet_[0-9a-f]{32}$/);
    expect(
      (await api.ErrorTrackingClientKeys.all(project.id, { perPage: 1 })).map(
        (k) => k.id,
      ),
    ).toEqual(expect.arrayContaining([old?.id, fresh.id]));
    // gitbeaker 43's ErrorTrackingClientKeys.remove leaves out the key id
    // (DELETE .../client_keys): the call goes through its own requester.
    const deleted = await api.ErrorTrackingClientKeys.requester.delete(
      `projects/${project.id}/error_tracking/client_keys/${old?.id}`,
    );
    expect(deleted.body).toMatchObject({ id: old?.id });
    expect(
      (await api.ErrorTrackingClientKeys.all(project.id)).map((k) => k.id),
    ).toEqual([fresh.id]);
    const store = (key: string) =>
      sendRaw(gw.url, {
        path: `/api/v4/error_tracking/collector/api/${project.id}/store/?sentry_key=${key}`,
        body: Buffer.from(JSON.stringify({ message: 'after rotation' })),
      });
    expect((await store(old?.public_key as string)).status).toBe(403);
    expect((await store(fresh.public_key)).status).toBe(200);
  });
});
