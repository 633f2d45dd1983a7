import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
  createTrackedProject,
  createUser,
  startErrorTrackingGateway,
  storeEvent,
} from './error-tracking-support';
import type { ErrorTrackingGateway, TestUser } from './error-tracking-support';
import { sentryCli } from './sentry-cli-support';

interface Group {
  id: string;
  shortId: string;
  title: string;
  status: string;
  [field: string]: unknown;
}

describe("sentry-cli's issues commands and Sentry's issue API (e2e)", () => {
  let gw: ErrorTrackingGateway;
  let owner: TestUser;
  let reporter: TestUser;
  let project: { id: number; path: string; publicKey: string };
  let work: string;
  /** Error ids by the title of the event that made them. */
  const ids: Record<string, string> = {};

  const auth = () => ({ Authorization: `Bearer ${owner.token}` });
  const issuesPath = (projectRef: string | number = project.id) =>
    `/api/0/projects/quitanda/${projectRef}/issues/`;
  const cli = (...args: string[]) =>
    sentryCli(gw, owner.token, work, [
      'issues',
      '--org',
      'quitanda',
      '--project',
      String(project.id),
      ...args,
    ]);

  async function statuses(): Promise<Record<string, string>> {
    const rows = await gw.query<{ id: string; status: string }>(
      'SELECT id::text AS id, status FROM error_tracking.errors WHERE project_id = $1',
      [project.id],
    );
    return Object.fromEntries(rows.map((r) => [r.id, r.status]));
  }

  async function setAll(status: string): Promise<void> {
    await gw.query(
      'UPDATE error_tracking.errors SET status = $2 WHERE project_id = $1',
      [project.id, status],
    );
  }

  beforeAll(async () => {
    gw = await startErrorTrackingGateway();
    owner = await createUser(gw);
    reporter = await createUser(gw);
    const created = await createTrackedProject(gw, owner.token);
    const shown = await gw.http
      .get(`/api/v4/projects/${created.id}`)
      .set('PRIVATE-TOKEN', owner.token)
      .expect(200);
    project = { ...created, path: shown.body.path };
    await gw.http
      .post(`/api/v4/projects/${project.id}/members`)
      .set('PRIVATE-TOKEN', owner.token)
      .send({ user_id: reporter.id, access_level: 20 })
      .expect(201);
    for (const [type, value, environment] of [
      ['TypeError', 'cart is undefined', 'production'],
      ['RangeError', 'quantity out of range', 'production'],
      ['SyntaxError', 'unexpected token in price', 'staging'],
    ] as const) {
      const res = await storeEvent(gw, project.id, project.publicKey, {
        platform: 'javascript',
        level: 'error',
        environment,
        release: 'shop@1.0.0',
        exception: { values: [{ type, value }] },
      });
      expect(res.status).toBe(200);
    }
    const rows = await gw.query<{ id: string; type: string }>(
      'SELECT id::text AS id, type FROM error_tracking.errors WHERE project_id = $1',
      [project.id],
    );
    for (const row of rows) ids[row.type] = row.id;
    expect(Object.keys(ids).sort()).toEqual([
      'RangeError',
      'SyntaxError',
      'TypeError',
    ]);
    work = await mkdtemp(join(tmpdir(), 'quitanda-issues-'));
  }, 60_000);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
    await gw?.close();
  });

  beforeEach(() => setAll('unresolved'));

  describe('sentry-cli', () => {
    it('`issues list` prints every issue with its id, short id, title, status and level', async () => {
      await setAll('resolved');
      const out = await cli('list');
      for (const [type, id] of Object.entries(ids)) {
        const line = out.split('\n').find((l) => l.includes(`| ${id} `));
        expect(line).toContain(`${type}: `);
        expect(line).toContain('| resolved ');
        expect(line).toContain('| error ');
        expect(line).toMatch(/\| [A-Z0-9-]+-[0-9A-V]+ /);
      }
    });

    it('`issues resolve --id` resolves the issues named and only those', async () => {
      const out = await cli(
        'resolve',
        '--id',
        ids['TypeError'] as string,
        '--id',
        ids['RangeError'] as string,
      );
      expect(out).toContain('Updated matching issues.');
      expect(await statuses()).toEqual({
        [ids['TypeError'] as string]: 'resolved',
        [ids['RangeError'] as string]: 'resolved',
        [ids['SyntaxError'] as string]: 'unresolved',
      });
    });

    it("`issues mute --all` ignores the unresolved issues (Sentry's default query)", async () => {
      await gw.query(
        'UPDATE error_tracking.errors SET status = $2 WHERE id = $1',
        [ids['TypeError'], 'resolved'],
      );
      await cli('mute', '--all');
      expect(await statuses()).toEqual({
        [ids['TypeError'] as string]: 'resolved',
        [ids['RangeError'] as string]: 'ignored',
        [ids['SyntaxError'] as string]: 'ignored',
      });
    });

    it('`issues unresolve --status muted` takes exactly the ignored issues', async () => {
      await setAll('resolved');
      await gw.query(
        'UPDATE error_tracking.errors SET status = $2 WHERE id = $1',
        [ids['SyntaxError'], 'ignored'],
      );
      await cli('unresolve', '--status', 'muted');
      expect(await statuses()).toEqual({
        [ids['TypeError'] as string]: 'resolved',
        [ids['RangeError'] as string]: 'resolved',
        [ids['SyntaxError'] as string]: 'unresolved',
      });
    });

    it('`issues resolve --next-release` is refused with a clear message and changes nothing', async () => {
      await expect(
        cli('resolve', '--next-release', '--id', ids['TypeError'] as string),
      ).rejects.toMatchObject({
        stderr: expect.stringContaining(
          'resolvedInNextRelease is not supported',
        ),
      });
      expect(Object.values(await statuses())).toEqual([
        'unresolved',
        'unresolved',
        'unresolved',
      ]);
    });
  });

  describe('GET /api/0/projects/{org}/{project}/issues/', () => {
    it("answers in Sentry's group shape, with 24 hourly stats", async () => {
      const res = await gw.http.get(issuesPath()).set(auth()).expect(200);
      const groups = res.body as Group[];
      expect(groups.map((g) => g.id).sort()).toEqual(Object.values(ids).sort());
      const group = groups.find((g) => g.id === ids['TypeError']) as Group;
      expect(group).toMatchObject({
        title: 'TypeError: cart is undefined',
        status: 'unresolved',
        statusDetails: {},
        substatus: 'ongoing',
        level: 'error',
        type: 'error',
        metadata: { type: 'TypeError', value: 'cart is undefined' },
        count: '1',
        userCount: expect.any(Number),
        project: {
          id: String(project.id),
          slug: project.path,
          name: expect.any(String),
        },
        permalink: expect.stringContaining(
          `/projects/${project.id}/error_tracking/${ids['TypeError']}`,
        ),
        assignedTo: null,
        isBookmarked: false,
      });
      expect(Date.parse(group['firstSeen'] as string)).not.toBeNaN();
      const stats = (group['stats'] as { '24h': number[][] })['24h'];
      expect(stats).toHaveLength(24);
      expect(stats.reduce((sum, [, n]) => sum + (n as number), 0)).toBe(1);
    });

    it('pages with Sentry\'s Link cursors until `results="false"`', async () => {
      const seen: string[] = [];
      let path = `${issuesPath(project.path)}?limit=2&cursor=`;
      for (let page = 0; page < 3; page += 1) {
        const res = await gw.http.get(path).set(auth()).expect(200);
        seen.push(...(res.body as Group[]).map((g) => g.id));
        const next =
          /<([^>]+)>; rel="next"; results="(true|false)"; cursor="([^"]*)"/.exec(
            res.headers['link'] as string,
          );
        expect(res.headers['link']).toContain(
          'rel="previous"; results="false"',
        );
        if (next?.[2] !== 'true') break;
        path =
          new URL(next[1] as string).pathname +
          new URL(next[1] as string).search;
      }
      expect(seen.sort()).toEqual(Object.values(ids).sort());
    });

    it('filters by is:, environment: and free text, and refuses keys not stored here', async () => {
      await gw.query(
        'UPDATE error_tracking.errors SET status = $2 WHERE id = $1',
        [ids['RangeError'], 'ignored'],
      );
      const list = async (query: string) =>
        (
          (
            await gw.http
              .get(issuesPath())
              .query({ query })
              .set(auth())
              .expect(200)
          ).body as Group[]
        )
          .map((g) => g.id)
          .sort();
      expect(await list('is:muted')).toEqual([ids['RangeError']]);
      expect(await list('is:unresolved environment:staging')).toEqual([
        ids['SyntaxError'],
      ]);
      expect(await list('cart')).toEqual([ids['TypeError']]);
      const refused = await gw.http
        .get(issuesPath())
        .query({ query: 'assigned:me' })
        .set(auth())
        .expect(400);
      expect(refused.body.detail).toContain('assigned');
      await gw.http
        .get(issuesPath())
        .query({ statsPeriod: '14d' })
        .set(auth())
        .expect(400);
    });

    it('reads every search of the GitLab API and the pages the same way', async () => {
      const own = await createTrackedProject(gw, owner.token);
      const thrown = (type: string, fields: Record<string, unknown>) => ({
        platform: 'javascript',
        exception: { values: [{ type, value: `${type} happened` }] },
        ...fields,
      });
      for (const event of [
        thrown('CheckoutError', {
          environment: 'production',
          release: 'shop@1.0.0',
          contexts: { browser: { name: 'Chrome', version: '120.0' } },
          user: { email: 'ana@example.com' },
          tags: { feature: 'cart' },
        }),
        thrown('CheckoutError', {
          environment: 'production',
          release: 'shop@1.0.0',
          contexts: { browser: { name: 'Firefox', version: '121.0' } },
          tags: { feature: 'cart' },
        }),
        thrown('SearchError', {
          environment: 'staging',
          release: 'shop@2.0.0',
          level: 'warning',
          contexts: { browser: { name: 'Firefox', version: '121.0' } },
          tags: { feature: 'search box' },
        }),
        { message: 'Disk almost full', server_name: 'worker-3' },
      ])
        expect(
          (await storeEvent(gw, own.id, own.publicKey, event)).status,
        ).toBe(200);
      const titles = (body: Array<{ title: string }>) =>
        body.map((g) => g.title.split(':')[0] as string).sort();
      const bothAnswer = async (query: string) => {
        const sentry = await gw.http
          .get(issuesPath(own.id))
          .query({ query })
          .set(auth())
          .expect(200);
        const gitlab = await gw.http
          .get(`/api/v4/projects/${own.id}/error_tracking/errors`)
          .query({ query })
          .set('PRIVATE-TOKEN', owner.token)
          .expect(200);
        expect(titles(sentry.body)).toEqual(titles(gitlab.body));
        return titles(sentry.body);
      };
      for (const [query, expected] of [
        ['browser.name:Firefox', ['CheckoutError', 'SearchError']],
        ['browser.name:Firefox !environment:staging', ['CheckoutError']],
        ['is:unresolved environment:staging', ['SearchError']],
        ['release:shop@2.*', ['SearchError']],
        ['user.email:ana@example.com', ['CheckoutError']],
        ['feature:"search box"', ['SearchError']],
        ['tags[feature]:cart', ['CheckoutError']],
        ['level:warning', ['SearchError']],
        ['!has:browser', ['Disk almost full']],
        ['has:server_name', ['Disk almost full']],
        ['"search box"', ['SearchError']],
        ['happened times_seen:>1', ['CheckoutError']],
        [
          'firstSeen:-1h !is:resolved',
          ['CheckoutError', 'Disk almost full', 'SearchError'],
        ],
      ] as const)
        await expect(bothAnswer(query)).resolves.toEqual(expected);
      // A fault is told the same way, in Sentry's error body.
      const refused = await gw.http
        .get(issuesPath(own.id))
        .query({ query: 'feature:"open' })
        .set(auth())
        .expect(400);
      expect(refused.body).toEqual({
        detail: 'query: a quote opened at character 9 is never closed',
      });
      // The bulk update takes the same search.
      await gw.http
        .put(issuesPath(own.id))
        .query({ query: '!has:browser' })
        .set(auth())
        .send({ status: 'resolved' })
        .expect(200);
      await expect(bothAnswer('is:resolved')).resolves.toEqual([
        'Disk almost full',
      ]);
    });

    it("needs a token of a member: Sentry's 401 and 404 bodies otherwise", async () => {
      const none = await gw.http.get(issuesPath()).expect(401);
      expect(none.body).toEqual({ detail: expect.any(String) });
      const stranger = await createUser(gw);
      const hidden = await gw.http
        .get(issuesPath())
        .set('Authorization', `Bearer ${stranger.token}`)
        .expect(404);
      expect(hidden.body).toEqual({
        detail: 'The requested resource does not exist',
      });
    });
  });

  describe('GET /api/0/issues/{id}/', () => {
    it('answers the issue as the list does, to a reader of its project', async () => {
      const id = ids['SyntaxError'] as string;
      const [listed] = (
        await gw.http
          .get(issuesPath())
          .query({ query: 'price' })
          .set(auth())
          .expect(200)
      ).body as Group[];
      const one = await gw.http
        .get(`/api/0/issues/${id}/`)
        .set('Authorization', `Bearer ${reporter.token}`)
        .expect(200);
      expect(one.body).toEqual(listed);
      expect(one.body).toMatchObject({ id, status: 'unresolved' });
    });

    it("is Sentry's 404 for a stranger, an unknown id and a malformed one", async () => {
      const stranger = await createUser(gw);
      for (const [token, id] of [
        [stranger.token, ids['TypeError'] as string],
        [owner.token, '999999999'],
        [owner.token, 'abc'],
      ] as const) {
        const res = await gw.http
          .get(`/api/0/issues/${id}/`)
          .set('Authorization', `Bearer ${token}`)
          .expect(404);
        expect(res.body).toEqual({
          detail: 'The requested resource does not exist',
        });
      }
    });
  });

  describe('PUT /api/0/projects/{org}/{project}/issues/', () => {
    it('answers 204 when no issue matched, and a reporter may not change status', async () => {
      await gw.http
        .put(`${issuesPath()}?id=999999999`)
        .set(auth())
        .send({ status: 'resolved' })
        .expect(204);
      await gw.http
        .put(`${issuesPath()}?id=${ids['TypeError']}`)
        .set('Authorization', `Bearer ${reporter.token}`)
        .send({ status: 'resolved' })
        .expect(403);
      expect(new Set(Object.values(await statuses()))).toEqual(
        new Set(['unresolved']),
      );
    });

    it("closes the linked issue of each error it resolves, as GitLab's status change does", async () => {
      const id = ids['RangeError'] as string;
      const linked = await gw.http
        .post(
          `/api/v4/projects/${project.id}/error_tracking/errors/${id}/issue`,
        )
        .set('PRIVATE-TOKEN', owner.token)
        .expect(201);
      const iid = (linked.body as { iid: number }).iid;
      await gw.http
        .put(`${issuesPath()}?id=${id}`)
        .set(auth())
        .send({ status: 'resolved' })
        .expect(200, { status: 'resolved', statusDetails: {} });
      const issue = await gw.http
        .get(`/api/v4/projects/${project.id}/issues/${iid}`)
        .set('PRIVATE-TOKEN', owner.token)
        .expect(200);
      expect(issue.body.state).toBe('closed');
    });

    it('refuses conditions it does not keep, bad ones and unknown statuses with a 400 that changes nothing', async () => {
      for (const body of [
        {
          status: 'ignored',
          statusDetails: { ignoreCount: 5, ignoreWindow: 60 },
        },
        { status: 'ignored', statusDetails: { ignoreDuration: 0 } },
        { status: 'resolved', statusDetails: { ignoreCount: 5 } },
        { status: 'muted', snoozeDuration: 'soon' },
        { status: 'gone' },
        { status: 'resolved', isBookmarked: true },
      ]) {
        const res = await gw.http
          .put(`${issuesPath()}?id=${ids['TypeError']}`)
          .set(auth())
          .send(body)
          .expect(400);
        expect(res.body).toEqual({ detail: expect.any(String) });
      }
      await gw.http
        .put(`${issuesPath()}?id=abc`)
        .set(auth())
        .send({ status: 'resolved' })
        .expect(400);
      const tooMany = Array.from({ length: 1001 }, (_, i) => `id=${i + 1}`);
      await gw.http
        .put(`${issuesPath()}?${tooMany.join('&')}`)
        .set(auth())
        .send({ status: 'resolved' })
        .expect(400);
      expect(new Set(Object.values(await statuses()))).toEqual(
        new Set(['unresolved']),
      );
    });
  });

  describe('GET /api/0/issues/{id}/events/ (and latest, oldest, one) and /tags/', () => {
    const oldestId = 'a1'.repeat(16);
    const oldestAt = new Date(Date.now() - 2 * 3_600_000).toISOString();

    beforeAll(async () => {
      const res = await storeEvent(gw, project.id, project.publicKey, {
        event_id: oldestId,
        timestamp: oldestAt,
        platform: 'javascript',
        level: 'error',
        environment: 'production',
        release: 'shop@1.0.0',
        tags: { browser: 'Firefox' },
        breadcrumbs: { values: [{ message: 'clicked pay' }] },
        exception: {
          values: [{ type: 'TypeError', value: 'cart is undefined' }],
        },
      });
      expect(res.status).toBe(200);
    });

    it("lists the issue's events newest first with Sentry's tags and Link", async () => {
      const id = ids['TypeError'] as string;
      const res = await gw.http
        .get(`/api/0/issues/${id}/events/`)
        .set(auth())
        .expect(200);
      const events = res.body as Array<Record<string, unknown>>;
      expect(events).toHaveLength(2);
      expect(events[1]).toMatchObject({
        id: oldestId,
        eventID: oldestId,
        groupID: id,
        projectID: String(project.id),
        title: 'TypeError: cart is undefined',
      });
      expect(events[1]?.['tags']).toEqual([
        { key: 'browser', value: 'Firefox' },
        { key: 'environment', value: 'production' },
        { key: 'level', value: 'error' },
        { key: 'release', value: 'shop@1.0.0' },
      ]);
      expect(res.headers['link']).toContain('rel="next"; results="false"');
      const paged = await gw.http
        .get(`/api/0/issues/${id}/events/?limit=1`)
        .set(auth())
        .expect(200);
      expect(paged.body).toHaveLength(1);
      expect(paged.headers['link']).toContain('rel="next"; results="true"');
    });

    it("counts the issue's tags over its stored events, SDK tags and derived ones", async () => {
      const id = ids['TypeError'] as string;
      const tags = await gw.http
        .get(`/api/0/issues/${id}/tags/`)
        .set(auth())
        .expect(200);
      const value = (key: string, v: string, count: number) => ({
        key,
        name: v,
        value: v,
        count,
        firstSeen: expect.any(String),
        lastSeen: expect.any(String),
      });
      // Each key has one value here: its events all carry the same one.
      const oneValue = (key: string, name: string, v: string, n: number) => ({
        key,
        name,
        totalValues: n,
        uniqueValues: 1,
        topValues: [value(key, v, n)],
      });
      expect(tags.body).toEqual([
        oneValue('browser', 'browser', 'Firefox', 1),
        oneValue('environment', 'Environment', 'production', 2),
        oneValue('level', 'Level', 'error', 2),
        oneValue('release', 'Release', 'shop@1.0.0', 2),
      ]);
      const values = await gw.http
        .get(`/api/0/issues/${id}/tags/environment/values/`)
        .set(auth())
        .expect(200);
      expect(values.body).toEqual([value('environment', 'production', 2)]);
      // First and last sightings are the value's own events' (kept by the
      // ingestion flush): the older event carries both values here.
      const [production] = values.body as Array<Record<string, string>>;
      expect(production?.['firstSeen']).toBe(oldestAt);
      expect(Date.parse(production?.['lastSeen'] ?? '')).toBeGreaterThan(
        Date.parse(oldestAt),
      );
      const browser = (tags.body as Array<Record<string, unknown>>)[0];
      expect(browser?.['topValues']).toEqual([
        expect.objectContaining({ firstSeen: oldestAt }),
      ]);
      const none = await gw.http
        .get(`/api/0/issues/${id}/tags/os/values/`)
        .set(auth())
        .expect(200);
      expect(none.body).toEqual([]);
      const stranger = await createUser(gw);
      await gw.http
        .get(`/api/0/issues/${id}/tags/`)
        .set('Authorization', `Bearer ${stranger.token}`)
        .expect(404);
    });

    it('answers the whole latest, oldest or named event with its entries', async () => {
      const id = ids['TypeError'] as string;
      const get = async (which: string) =>
        (
          await gw.http
            .get(`/api/0/issues/${id}/events/${which}/`)
            .set(auth())
            .expect(200)
        ).body as Record<string, unknown>;
      const listed = (
        await gw.http.get(`/api/0/issues/${id}/events/`).set(auth())
      ).body as Array<{ eventID: string }>;
      const oldest = await get('oldest');
      expect(oldest).toMatchObject({
        eventID: oldestId,
        groupID: id,
        type: 'error',
        release: { version: 'shop@1.0.0' },
        entries: [
          {
            type: 'exception',
            data: { values: [expect.objectContaining({ type: 'TypeError' })] },
          },
          {
            type: 'breadcrumbs',
            data: {
              values: [expect.objectContaining({ message: 'clicked pay' })],
            },
          },
        ],
      });
      expect(await get(oldestId)).toEqual(oldest);
      expect((await get('latest'))['eventID']).toBe(listed[0]?.eventID);
      await gw.http
        .get(`/api/0/issues/${id}/events/${'b2'.repeat(16)}/`)
        .set(auth())
        .expect(404);
    });
  });
});
