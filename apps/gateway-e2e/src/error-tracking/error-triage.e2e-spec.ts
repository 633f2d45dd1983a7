import {
  createMember,
  createTrackedProject,
  createUser,
  startErrorTrackingGateway,
  statusesByTitle,
  storeEvent,
} from './error-tracking-support';
import type { ErrorTrackingGateway, TestUser } from './error-tracking-support';
import { csrfOf, rootPassword, signedInAgent } from './web-support';

/**
 * Triage over HTTP: the bulk status change and the merge of the GitLab
 * API (`PUT .../errors`, `POST .../errors/:error_id/merge`), ignoring until
 * a count, and Sentry's bulk `PUT` with `statusDetails` and `merge`.
 */
describe('error triage: bulk status, ignore until, merge (e2e)', () => {
  let gw: ErrorTrackingGateway;
  let owner: TestUser;
  let eventNumber = 0;

  const api = (projectId: number, path: string) =>
    `/api/v4/projects/${projectId}/error_tracking/${path}`;

  beforeAll(async () => {
    gw = await startErrorTrackingGateway();
    owner = await createUser(gw);
  });

  afterAll(async () => {
    await gw?.close();
  });

  /** A project with one error per title (one event each); their ids by title. */
  async function projectWith(
    ...titles: string[]
  ): Promise<{ id: number; publicKey: string; ids: Record<string, string> }> {
    const project = await createTrackedProject(gw, owner.token);
    for (const title of titles) await send(project, title);
    const rows = await gw.query<{ id: string; title: string }>(
      'SELECT id::text AS id, title FROM error_tracking.errors WHERE project_id = $1',
      [project.id],
    );
    return {
      ...project,
      ids: Object.fromEntries(rows.map((row) => [row.title, row.id])),
    };
  }

  async function send(
    project: { id: number; publicKey: string },
    message: string,
    user?: string,
  ): Promise<void> {
    eventNumber += 1;
    const res = await storeEvent(gw, project.id, project.publicKey, {
      event_id: eventNumber.toString(16).padStart(32, 'e'),
      message,
      ...(user ? { user: { id: user } } : {}),
    });
    expect(res.status).toBe(200);
  }

  const statuses = (projectId: number) => statusesByTitle(gw, projectId);

  it('resolves a selection, closing linked issues, and leaves the rest', async () => {
    const project = await projectWith('cart lost', 'price wrong', 'slow page');
    const issue = await gw.http
      .post(api(project.id, `errors/${project.ids['cart lost']}/issue`))
      .set('PRIVATE-TOKEN', owner.token)
      .expect(201);
    const res = await gw.http
      .put(api(project.id, 'errors'))
      .set('PRIVATE-TOKEN', owner.token)
      .send({
        status: 'resolved',
        error_ids: [project.ids['cart lost'], project.ids['price wrong']],
      })
      .expect(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.body).toEqual({
      updated: 2,
      error_ids: expect.arrayContaining([
        project.ids['cart lost'],
        project.ids['price wrong'],
      ]),
      closed_issue_iids: [issue.body.iid],
    });
    expect(await statuses(project.id)).toEqual({
      'cart lost': 'resolved',
      'price wrong': 'resolved',
      'slow page': 'unresolved',
    });
  });

  it('ignores every error a search takes, and refuses a search that takes more than it may', async () => {
    const project = await projectWith(
      'timeout in cart',
      'timeout in search',
      'cart lost',
    );
    const res = await gw.http
      .put(api(project.id, 'errors'))
      .set('PRIVATE-TOKEN', owner.token)
      .send({ status: 'ignored', all_matching: true, search: 'timeout' })
      .expect(200);
    expect(res.body.updated).toBe(2);
    expect(await statuses(project.id)).toEqual({
      'timeout in cart': 'ignored',
      'timeout in search': 'ignored',
      'cart lost': 'unresolved',
    });
    // The same search on the ignored tab, back to unresolved.
    const reopened = await gw.http
      .put(api(project.id, 'errors'))
      .set('PRIVATE-TOKEN', owner.token)
      .send({
        status: 'unresolved',
        all_matching: 'true',
        current_status: 'ignored',
        search: 'timeout',
      })
      .expect(200);
    expect(reopened.body).toMatchObject({ updated: 2, closed_issue_iids: [] });
    const tooMany = Array.from({ length: 1001 }, (_, i) => String(i + 1));
    const refused = await gw.http
      .put(api(project.id, 'errors'))
      .set('PRIVATE-TOKEN', owner.token)
      .send({ status: 'resolved', error_ids: tooMany })
      .expect(400);
    expect(refused.body).toEqual({
      error: 'error_ids has more than 1000 errors',
    });
  });

  it('refuses bad bulk requests with GitLab errors that change nothing', async () => {
    const project = await projectWith('cart lost');
    const id = project.ids['cart lost'] as string;
    const cases: Array<[Record<string, unknown>, number, unknown]> = [
      [
        { status: 'resolved' },
        400,
        {
          error:
            'error_ids, all_matching are missing, exactly one parameter must be provided',
        },
      ],
      [
        { status: 'resolved', error_ids: [id], all_matching: true },
        400,
        { error: 'error_ids, all_matching are mutually exclusive' },
      ],
      [
        { status: 'resolved', error_ids: ['x'] },
        400,
        { error: 'error_ids is invalid' },
      ],
      [
        { status: 'gone', error_ids: [id] },
        400,
        { error: 'status does not have a valid value' },
      ],
      [
        { status: 'resolved', error_ids: [id], ignore_count: 3 },
        400,
        {
          error:
            'ignore_minutes, ignore_count, ignore_user_count are only valid with status ignored',
        },
      ],
      [
        { status: 'resolved', all_matching: true, search: 'a\u0000b' },
        400,
        { error: 'search must not contain a NUL character' },
      ],
      [
        { status: 'ignored', error_ids: [id], ignore_minutes: 0 },
        400,
        {
          error:
            'ignore_minutes does not have a valid value (a whole number from 1 to 525600)',
        },
      ],
    ];
    for (const [body, status, answer] of cases) {
      const res = await gw.http
        .put(api(project.id, 'errors'))
        .set('PRIVATE-TOKEN', owner.token)
        .send(body)
        .expect(status);
      expect(res.body).toEqual(answer);
    }
    const reporter = await createMember(gw, project.id, 20);
    await gw.http
      .put(api(project.id, 'errors'))
      .set('PRIVATE-TOKEN', reporter.token)
      .send({ status: 'resolved', error_ids: [id] })
      .expect(403);
    expect(await statuses(project.id)).toEqual({ 'cart lost': 'unresolved' });
  });

  it('ignores an error until 2 more events: the second one reopens it', async () => {
    const project = await projectWith('quota exceeded');
    const id = project.ids['quota exceeded'] as string;
    await gw.http
      .put(api(project.id, `errors/${id}`))
      .set('PRIVATE-TOKEN', owner.token)
      .send({ status: 'ignored', ignore_count: 2 })
      .expect(200);
    await send(project, 'quota exceeded');
    expect(await statuses(project.id)).toEqual({ 'quota exceeded': 'ignored' });
    await send(project, 'quota exceeded');
    const error = await gw.http
      .get(api(project.id, `errors/${id}`))
      .set('PRIVATE-TOKEN', owner.token)
      .expect(200);
    expect(error.body).toMatchObject({ status: 'unresolved', count: 3 });
  });

  it('merges errors into one: the kept error counts everything, the merged ones are gone, their new events land in it', async () => {
    const project = await projectWith('kept', 'first', 'second');
    await send(project, 'first', 'ana');
    const kept = project.ids['kept'] as string;
    const res = await gw.http
      .post(api(project.id, `errors/${kept}/merge`))
      .set('PRIVATE-TOKEN', owner.token)
      .send({ error_ids: [project.ids['first'], project.ids['second']] })
      .expect(200);
    expect(res.body).toMatchObject({ id: kept, count: 4, user_count: 1 });
    await gw.http
      .get(api(project.id, `errors/${project.ids['first']}`))
      .set('PRIVATE-TOKEN', owner.token)
      .expect(404);
    await send(project, 'second');
    const after = await gw.http
      .get(api(project.id, `errors/${kept}`))
      .set('PRIVATE-TOKEN', owner.token)
      .expect(200);
    expect(after.body.count).toBe(5);
    const events = await gw.http
      .get(api(project.id, `errors/${kept}/events?per_page=10`))
      .set('PRIVATE-TOKEN', owner.token)
      .expect(200);
    expect(events.body).toHaveLength(5);
    const alerts = await gw.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM error_tracking.alerts
        WHERE project_id = $1 AND trigger = 'new'`,
      [project.id],
    );
    expect(alerts).toEqual([{ n: '3' }]);
  });

  it('refuses a merge into an unknown error, of another project, or of nothing', async () => {
    const project = await projectWith('alpha', 'beta');
    const other = await projectWith('gamma');
    const merge = (kept: string, body: Record<string, unknown>) =>
      gw.http
        .post(api(project.id, `errors/${kept}/merge`))
        .set('PRIVATE-TOKEN', owner.token)
        .send(body);
    await merge('999999999', { error_ids: [project.ids['beta']] }).expect(404, {
      message: '404 Error Not Found',
    });
    await merge(project.ids['alpha'] as string, {
      error_ids: [other.ids['gamma']],
    }).expect(404, { message: '404 Error Not Found' });
    await merge(project.ids['alpha'] as string, {}).expect(400, {
      error: 'error_ids is missing',
    });
    expect(await statuses(project.id)).toEqual({
      alpha: 'unresolved',
      beta: 'unresolved',
    });
    expect(await statuses(other.id)).toEqual({ gamma: 'unresolved' });
  });

  it("answers Sentry's bulk PUT with ignore details and merge", async () => {
    const project = await projectWith('one', 'two', 'three');
    await send(project, 'two');
    const issues = `/api/0/projects/quitanda/${project.id}/issues/`;
    const auth = { Authorization: `Bearer ${owner.token}` };
    const ignored = await gw.http
      .put(`${issues}?id=${project.ids['one']}`)
      .set(auth)
      .send({ status: 'ignored', statusDetails: { ignoreCount: 1 } })
      .expect(200);
    expect(ignored.body).toEqual({
      status: 'ignored',
      statusDetails: { ignoreCount: 1 },
    });
    await send(project, 'one');
    expect((await statuses(project.id))['one']).toBe('unresolved');
    const before = Date.now();
    const snoozed = await gw.http
      .put(`${issues}?id=${project.ids['one']}`)
      .set(auth)
      .send({ status: 'ignored', statusDetails: { ignoreDuration: 30 } })
      .expect(200);
    expect(snoozed.body.statusDetails).toEqual({
      ignoreDuration: 30,
      ignoreUntil: expect.any(String),
    });
    const issue = await gw.http
      .get(`/api/0/issues/${project.ids['one']}/`)
      .set(auth)
      .expect(200);
    expect(issue.body.status).toBe('ignored');
    // Thirty minutes from the moment of the change (the same machine's clock).
    const until = Date.parse(issue.body.statusDetails.ignoreUntil as string);
    expect(until).toBeGreaterThanOrEqual(before + 30 * 60_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 30 * 60_000);
    const merged = await gw.http
      .put(`${issues}?id=${project.ids['three']}&id=${project.ids['two']}`)
      .set(auth)
      .send({ merge: 1 })
      .expect(200);
    // The issue seen most often is kept, as Sentry keeps it.
    expect(merged.body).toEqual({
      merge: { parent: project.ids['two'], children: [project.ids['three']] },
    });
    await gw.http
      .put(`${issues}?id=${project.ids['two']}`)
      .set(auth)
      .send({ merge: 1 })
      .expect(400);
  });

  it("refuses the list's triage form with a bad selection or action (400), a reporter (403), and changes nothing", async () => {
    const project = await projectWith('cart lost');
    const id = project.ids['cart lost'] as string;
    const agent = await signedInAgent(gw, 'root', await rootPassword(gw));
    const list = await agent
      .get(`/projects/${project.id}/error_tracking`)
      .expect(200);
    const form = {
      _csrf: csrfOf(list.text),
      status: 'unresolved',
      search: '',
      environment: '',
      ignore: '',
    };
    const bulk = `/projects/${project.id}/error_tracking/bulk`;
    for (const fields of [
      { action: 'resolved', ids: 'x' },
      {
        action: 'resolved',
        ids: Array.from({ length: 41 }, (_, i) => `${i + 1}`),
      },
      { action: 'delete', ids: id },
      { action: 'ignored', ignore: 'minutes:5', ids: id },
    ]) {
      const res = await agent
        .post(bulk)
        .type('form')
        .send({ ...form, ...fields })
        .expect(400);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
    }
    await agent
      .post(`/projects/${project.id}/error_tracking/merge`)
      .type('form')
      .send({ _csrf: form._csrf, ids: id, kept: '999' })
      .expect(400);
    const reporter = await createMember(gw, project.id, 20);
    const reader = await signedInAgent(
      gw,
      reporter.username,
      'correct horse battery',
    );
    const page = await reader
      .get(`/projects/${project.id}/error_tracking`)
      .expect(200);
    expect(page.text).not.toContain('bulk-actions');
    await reader
      .post(bulk)
      .type('form')
      .send({ ...form, _csrf: csrfOf(page.text), action: 'resolved', ids: id })
      .expect(403);
    expect(await statuses(project.id)).toEqual({ 'cart lost': 'unresolved' });
  });
});
