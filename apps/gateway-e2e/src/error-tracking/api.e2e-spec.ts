import { defined } from '@quitanda/testing';

import {
  ROOT_TOKEN,
  createTrackedProject,
  createUser,
  sendRaw,
  startErrorTrackingGateway,
  storeEvent,
  unique,
} from './error-tracking-support';
import type { ErrorTrackingGateway, TestUser } from './error-tracking-support';

const root = { 'PRIVATE-TOKEN': ROOT_TOKEN };
const PUBLIC_BASE_URL = 'https://errors.example.com/base';

describe('error tracking REST API (e2e)', () => {
  let gw: ErrorTrackingGateway;

  beforeAll(async () => {
    gw = await startErrorTrackingGateway({
      PUBLIC_BASE_URL,
    });
  });

  afterAll(() => gw?.close());

  describe('authentication', () => {
    it('answers 401 without a token, with a wrong one, or an expired or revoked one', async () => {
      await gw.http
        .get('/api/v4/user')
        .expect(401, { message: '401 Unauthorized' });
      await gw.http
        .get('/api/v4/user')
        .set('PRIVATE-TOKEN', 'glpat-nope')
        .expect(401, { message: '401 Unauthorized' });
      const user = await createUser(gw);
      await gw.http
        .delete('/api/v4/personal_access_tokens/self')
        .set('PRIVATE-TOKEN', user.token)
        .expect(204);
      await gw.http
        .get('/api/v4/user')
        .set('PRIVATE-TOKEN', user.token)
        .expect(401);
    });

    it('accepts PRIVATE-TOKEN and Authorization: Bearer, and shows the caller', async () => {
      const byHeader = await gw.http.get('/api/v4/user').set(root).expect(200);
      expect(byHeader.body).toMatchObject({
        username: 'root',
        is_admin: true,
        state: 'active',
      });
      const byBearer = await gw.http
        .get('/api/v4/user')
        .set('Authorization', `Bearer ${ROOT_TOKEN}`)
        .expect(200);
      expect(byBearer.body.id).toBe(byHeader.body.id);
    });

    it('refuses writes with a read_api token (403) but allows reads', async () => {
      const reader = await createUser(gw, { scopes: ['read_api'] });
      await gw.http
        .get('/api/v4/projects')
        .set('PRIVATE-TOKEN', reader.token)
        .expect(200);
      const res = await gw.http
        .post('/api/v4/projects')
        .set('PRIVATE-TOKEN', reader.token)
        .send({ name: unique('p') })
        .expect(403);
      expect(res.body.error).toBe('insufficient_scope');
    });

    it('lets a token lapse on its expiry date', async () => {
      const tomorrow = new Date(Date.now() + 86_400_000)
        .toISOString()
        .slice(0, 10);
      const user = await createUser(gw, { expiresAt: tomorrow });
      await gw.http
        .get('/api/v4/user')
        .set('PRIVATE-TOKEN', user.token)
        .expect(200);
      await gw.query(
        `UPDATE error_tracking.personal_access_tokens SET expires_at = current_date
          WHERE user_id = $1`,
        [user.id],
      );
      await gw.http
        .get('/api/v4/user')
        .set('PRIVATE-TOKEN', user.token)
        .expect(401);
    });
  });

  describe('users and tokens', () => {
    it('creates users (admin only), refuses duplicates and missing parameters', async () => {
      const username = unique('alice');
      const created = await gw.http
        .post('/api/v4/users')
        .set(root)
        .send({
          username,
          name: 'Alice',
          email: `${username}@example.com`,
          password: 'long enough',
        })
        .expect(201);
      expect(created.body).toMatchObject({
        username,
        name: 'Alice',
        is_admin: false,
        state: 'active',
      });
      await gw.http
        .post('/api/v4/users')
        .set(root)
        .send({
          username: username.toUpperCase(),
          name: 'A',
          email: `x${username}@example.com`,
        })
        .expect(409, { message: 'Username has already been taken' });
      await gw.http
        .post('/api/v4/users')
        .set(root)
        .send({ name: 'Nobody' })
        .expect(400, { error: 'email is missing, username is missing' });
      const plain = await createUser(gw);
      await gw.http
        .post('/api/v4/users')
        .set('PRIVATE-TOKEN', plain.token)
        .send({
          username: unique('x'),
          name: 'x',
          email: `${unique('x')}@e.com`,
        })
        .expect(403);
      await gw.http
        .get('/api/v4/users')
        .set('PRIVATE-TOKEN', plain.token)
        .expect(403);
      const list = await gw.http
        .get('/api/v4/users?per_page=1')
        .set(root)
        .expect(200);
      expect(list.body).toHaveLength(1);
      expect(Number(list.headers['x-total'])).toBeGreaterThan(1);
    });

    it('issues glpat- tokens shown once, stored hashed, listed and revoked', async () => {
      const user = await createUser(gw, { scopes: ['api', 'read_api'] });
      expect(user.token).toMatch(/^glpat-[A-Za-z0-9_-]{20,}$/);
      const stored = await gw.query<{ token_digest: string }>(
        'SELECT token_digest FROM error_tracking.personal_access_tokens WHERE user_id = $1',
        [user.id],
      );
      expect(JSON.stringify(stored)).not.toContain(user.token);
      const mine = await gw.http
        .get('/api/v4/personal_access_tokens')
        .set('PRIVATE-TOKEN', user.token)
        .expect(200);
      expect(mine.body).toEqual([
        expect.objectContaining({
          name: 'e2e',
          scopes: ['api', 'read_api'],
          active: true,
          revoked: false,
        }),
      ]);
      expect(mine.body[0]).not.toHaveProperty('token');
      await gw.http
        .post(`/api/v4/users/${user.id}/personal_access_tokens`)
        .set(root)
        .send({ name: 'bad', scopes: ['sudo'] })
        .expect(400, { error: 'scopes does not have a valid value' });
      await gw.http
        .delete(`/api/v4/personal_access_tokens/${mine.body[0].id}`)
        .set('PRIVATE-TOKEN', user.token)
        .expect(204);
      await gw.http
        .get('/api/v4/user')
        .set('PRIVATE-TOKEN', user.token)
        .expect(401);
    });
  });

  describe('projects and members', () => {
    let owner: TestUser;
    let projectId: number;
    let path: string;
    const members: Record<string, TestUser> = {};

    beforeAll(async () => {
      owner = await createUser(gw);
      path = unique('shop');
      const project = await gw.http
        .post('/api/v4/projects')
        .set('PRIVATE-TOKEN', owner.token)
        .send({ name: 'Shop', path, description: 'd' })
        .expect(201);
      projectId = project.body.id;
      for (const [role, level] of [
        ['guest', 10],
        ['reporter', 20],
        ['developer', 30],
        ['maintainer', 40],
      ] as const) {
        members[role] = await createUser(gw);
        await gw.http
          .post(`/api/v4/projects/${projectId}/members`)
          .set('PRIVATE-TOKEN', owner.token)
          .send({ user_id: defined(members[role]).id, access_level: level })
          .expect(201);
      }
      members['outsider'] = await createUser(gw);
    });

    function as(role: string) {
      return { 'PRIVATE-TOKEN': defined(members[role]).token };
    }

    it("answers GitLab's project entity by id or URL-encoded path, with its web URL", async () => {
      const byId = await gw.http
        .get(`/api/v4/projects/${projectId}`)
        .set('PRIVATE-TOKEN', owner.token)
        .expect(200);
      expect(byId.body).toMatchObject({
        id: projectId,
        name: 'Shop',
        path,
        description: 'd',
        web_url: `https://errors.example.com/base/projects/${projectId}`,
      });
      const byPath = await gw.http
        .get(`/api/v4/projects/${encodeURIComponent(path)}`)
        .set('PRIVATE-TOKEN', owner.token)
        .expect(200);
      expect(byPath.body.id).toBe(projectId);
    });

    it('hides projects from non-members (404) and lists only own projects', async () => {
      await gw.http
        .get(`/api/v4/projects/${projectId}`)
        .set(as('outsider'))
        .expect(404, { message: '404 Project Not Found' });
      await gw.http
        .get(`/api/v4/projects/${projectId}/error_tracking/errors`)
        .set(as('outsider'))
        .expect(404, { message: '404 Project Not Found' });
      const list = await gw.http
        .get('/api/v4/projects')
        .set(as('outsider'))
        .expect(200);
      expect(list.body).toEqual([]);
      const mine = await gw.http
        .get('/api/v4/projects')
        .set(as('guest'))
        .expect(200);
      expect(mine.body.map((p: { id: number }) => p.id)).toEqual([projectId]);
    });

    it('enforces roles: guest reads nothing of errors, reporter reads, developer triages, maintainer configures', async () => {
      const base = `/api/v4/projects/${projectId}/error_tracking`;
      await gw.http
        .get(`${base}/errors`)
        .set(as('guest'))
        .expect(403, { message: '403 Forbidden' });
      await gw.http.get(`${base}/errors`).set(as('reporter')).expect(200);
      await gw.http
        .get(`/api/v4/projects/${projectId}/issues`)
        .set(as('reporter'))
        .expect(200);
      await gw.http
        .post(`/api/v4/projects/${projectId}/issues`)
        .set(as('reporter'))
        .send({ title: 'x' })
        .expect(403);
      await gw.http
        .post(`/api/v4/projects/${projectId}/issues`)
        .set(as('developer'))
        .send({ title: 'x' })
        .expect(201);
      await gw.http.get(`${base}/settings`).set(as('developer')).expect(403);
      await gw.http.get(`${base}/client_keys`).set(as('developer')).expect(403);
      await gw.http.get(`${base}/settings`).set(as('maintainer')).expect(200);
      await gw.http
        .post(`${base}/client_keys`)
        .set(as('maintainer'))
        .expect(201);
    });

    it('manages members: list, conflicts, no escalation, removal', async () => {
      const list = await gw.http
        .get(`/api/v4/projects/${projectId}/members`)
        .set(as('guest'))
        .expect(200);
      expect(list.body).toHaveLength(5);
      expect(
        list.body.find((m: { id: number }) => m.id === owner.id).access_level,
      ).toBe(50);
      await gw.http
        .post(`/api/v4/projects/${projectId}/members`)
        .set(as('maintainer'))
        .send({ user_id: defined(members['guest']).id, access_level: 20 })
        .expect(409, { message: 'Member already exists' });
      const newcomer = await createUser(gw);
      await gw.http
        .post(`/api/v4/projects/${projectId}/members`)
        .set(as('maintainer'))
        .send({ user_id: newcomer.id, access_level: 50 })
        .expect(403);
      await gw.http
        .post(`/api/v4/projects/${projectId}/members`)
        .set(as('maintainer'))
        .send({ user_id: newcomer.id, access_level: 15 })
        .expect(400, { error: 'access_level does not have a valid value' });
      await gw.http
        .post(`/api/v4/projects/${projectId}/members`)
        .set(as('developer'))
        .send({ user_id: newcomer.id, access_level: 10 })
        .expect(403);
      await gw.http
        .post(`/api/v4/projects/${projectId}/members`)
        .set(as('maintainer'))
        .send({ user_id: newcomer.id, access_level: 10 })
        .expect(201);
      await gw.http
        .delete(`/api/v4/projects/${projectId}/members/${newcomer.id}`)
        .set(as('maintainer'))
        .expect(204);
      await gw.http
        .get(`/api/v4/projects/${projectId}/members/${newcomer.id}`)
        .set(as('guest'))
        .expect(404, { message: '404 Member Not Found' });
      await gw.http
        .delete(`/api/v4/projects/${projectId}/members/${owner.id}`)
        .set(as('maintainer'))
        .expect(403);
    });

    it('lets an admin act as owner of any project', async () => {
      await gw.http
        .get(`/api/v4/projects/${projectId}/error_tracking/settings`)
        .set(root)
        .expect(200);
    });

    it('refuses a second project with the same path', async () => {
      const res = await gw.http
        .post('/api/v4/projects')
        .set('PRIVATE-TOKEN', owner.token)
        .send({ name: 'Again', path })
        .expect(400);
      expect(res.body).toEqual({
        message: { path: ['has already been taken'] },
      });
      await gw.http
        .post('/api/v4/projects')
        .set('PRIVATE-TOKEN', owner.token)
        .send({})
        .expect(400, {
          error:
            'name, path are missing, at least one parameter must be provided',
        });
    });
  });

  describe('settings and client keys', () => {
    let projectId: number;
    const base = () => `/api/v4/projects/${projectId}/error_tracking`;

    beforeAll(async () => {
      const project = await gw.http
        .post('/api/v4/projects')
        .set(root)
        .send({ name: unique('keys') })
        .expect(201);
      projectId = project.body.id;
    });

    it("shows GitLab's setting entity for a project never set up", async () => {
      await gw.http.get(`${base()}/settings`).set(root).expect(200, {
        active: false,
        project_name: null,
        sentry_external_url: null,
        api_url: null,
        integrated: true,
      });
      const keys = await gw.http
        .get(`${base()}/client_keys`)
        .set(root)
        .expect(200);
      expect(keys.body).toEqual([]);
    });

    it("validates parameters with Grape's messages, from the body or the query", async () => {
      await gw.http
        .patch(`${base()}/settings`)
        .set(root)
        .send({})
        .expect(400, { error: 'active is missing' });
      await gw.http
        .patch(`${base()}/settings`)
        .set(root)
        .send({ active: 'maybe' })
        .expect(400, { error: 'active is invalid' });
      await gw.http
        .put(`${base()}/settings?active=true`)
        .set(root)
        .expect(400, { error: 'integrated is missing' });
      await gw.http
        .put(`${base()}/settings`)
        .set(root)
        .send({ active: true, integrated: 'x' })
        .expect(400, { error: 'integrated is invalid' });
    });

    it('creates the first key when enabled, with a DSN from PUBLIC_BASE_URL', async () => {
      const res = await gw.http
        .put(`${base()}/settings?active=true&integrated=true`)
        .set(root)
        .expect(200);
      expect(res.body).toEqual({
        active: true,
        project_name: null,
        sentry_external_url: null,
        api_url: null,
        integrated: true,
      });
      const keys = await gw.http
        .get(`${base()}/client_keys`)
        .set(root)
        .expect(200);
      expect(keys.body).toHaveLength(1);
      const [key] = keys.body;
      expect(Object.keys(key).sort()).toEqual([
        'active',
        'id',
        'public_key',
        'sentry_dsn',
      ]);
      expect(key.public_key).toMatch(/^glet_[0-9a-f]{32}$/);
      expect(key.sentry_dsn).toBe(
        `https://${key.public_key}@errors.example.com/base/api/v4/error_tracking/collector/${projectId}`,
      );
      // Enabling again does not add a key.
      await gw.http
        .patch(`${base()}/settings`)
        .set(root)
        .send({ active: true })
        .expect(200);
      const again = await gw.http
        .get(`${base()}/client_keys`)
        .set(root)
        .expect(200);
      expect(again.body).toHaveLength(1);
      expect(again.headers['x-total']).toBe('1');
      expect(again.headers['x-page']).toBe('1');
      expect(again.headers['x-per-page']).toBe('20');
    });

    it('rotates a key: create, list, delete the old one, which stops ingesting at once', async () => {
      const [old] = (
        await gw.http.get(`${base()}/client_keys`).set(root).expect(200)
      ).body;
      const event = { message: 'rotation check' };
      expect(
        (await storeEvent(gw, projectId, old.public_key, event)).status,
      ).toBe(200);

      const created = await gw.http
        .post(`${base()}/client_keys`)
        .set(root)
        .set('Content-Type', 'application/json')
        .expect(201);
      expect(created.body.public_key).not.toBe(old.public_key);
      const listed = await gw.http
        .get(`${base()}/client_keys?per_page=1&page=2`)
        .set(root)
        .expect(200);
      expect(listed.body).toEqual([created.body]);
      expect(listed.headers['x-total']).toBe('2');
      expect(listed.headers['x-prev-page']).toBe('1');
      expect(listed.headers['x-next-page']).toBe('');

      const deleted = await gw.http
        .delete(`${base()}/client_keys/${old.id}`)
        .set(root)
        .expect(200);
      expect(deleted.body).toEqual(old);
      const refused = await storeEvent(gw, projectId, old.public_key, event);
      expect(refused.status).toBe(403);
      expect(refused.json()).toEqual({ detail: expect.any(String) });
      expect(
        (await storeEvent(gw, projectId, created.body.public_key, event))
          .status,
      ).toBe(200);
      await gw.http
        .delete(`${base()}/client_keys/${old.id}`)
        .set(root)
        .expect(404);
    });

    it('stops ingestion when tracking is disabled', async () => {
      const [key] = (
        await gw.http.get(`${base()}/client_keys`).set(root).expect(200)
      ).body;
      await gw.http
        .patch(`${base()}/settings`)
        .set(root)
        .send({ active: false })
        .expect(200);
      expect(
        (await storeEvent(gw, projectId, key.public_key, { message: 'off' }))
          .status,
      ).toBe(403);
      await gw.http
        .patch(`${base()}/settings`)
        .set(root)
        .send({ active: true })
        .expect(200);
      expect(
        (await storeEvent(gw, projectId, key.public_key, { message: 'on' }))
          .status,
      ).toBe(200);
    });

    it('derives the DSN from the request when PUBLIC_BASE_URL is unset, proxies only when trusted', async () => {
      const plain = await startErrorTrackingGateway();
      const trusting = await startErrorTrackingGateway({ TRUST_PROXY: 'true' });
      try {
        for (const [server, trusted] of [
          [plain, false],
          [trusting, true],
        ] as const) {
          const { id } = await createTrackedProject(server);
          const res = await server.http
            .get(`/api/v4/projects/${id}/error_tracking/client_keys`)
            .set(root)
            .set('Host', 'internal:8080')
            .set('X-Forwarded-Proto', 'https')
            .set('X-Forwarded-Host', 'public.example.org');
          expect(res.body[0].sentry_dsn).toBe(
            trusted
              ? `https://${res.body[0].public_key}@public.example.org/api/v4/error_tracking/collector/${id}`
              : `http://${res.body[0].public_key}@internal:8080/api/v4/error_tracking/collector/${id}`,
          );
        }
      } finally {
        await plain.close();
        await trusting.close();
      }
    });
  });

  describe('errors, issues and statuses', () => {
    let project: { id: number; publicKey: string };
    const base = () => `/api/v4/projects/${project.id}/error_tracking`;

    beforeAll(async () => {
      project = await createTrackedProject(gw);
    });

    async function send(event: Record<string, unknown>) {
      const res = await storeEvent(gw, project.id, project.publicKey, event);
      expect(res.status).toBe(200);
      return res.json()['id'] as string;
    }

    function exceptionEvent(
      fn: string,
      line: number,
      extra: Record<string, unknown> = {},
    ) {
      return {
        platform: 'node',
        release: 'abcdef0123456789',
        environment: 'staging',
        user: { id: `u-${line}` },
        exception: {
          values: [
            {
              type: 'TypeError',
              value: `cannot read ${line}`,
              stacktrace: {
                frames: [
                  { function: 'main', module: 'app', lineno: 1, in_app: true },
                  {
                    function: fn,
                    module: 'app',
                    lineno: line,
                    // The same throw, moved by edits above it.
                    context_line: `  boom(${fn})`,
                    in_app: true,
                  },
                ],
              },
            },
          ],
        },
        ...extra,
      };
    }

    it('lists, filters, searches, sorts and pages errors', async () => {
      await send(
        exceptionEvent('alpha', 10, {
          environment: 'production',
          release: 'r1',
        }),
      );
      await send(exceptionEvent('alpha', 11));
      await send(exceptionEvent('beta', 12));
      await send({
        message: 'Disk quota 91% used',
        level: 'warning',
        environment: 'staging',
      });
      const all = await gw.http.get(`${base()}/errors`).set(root).expect(200);
      expect(all.body).toHaveLength(3);
      const alpha = all.body.find(
        (e: { culprit: string }) => e.culprit === 'alpha(app)',
      );
      expect(alpha).toMatchObject({
        count: 2,
        user_count: 2,
        status: 'unresolved',
        type: 'TypeError',
        project_id: project.id,
      });
      expect(alpha.frequency).toHaveLength(24);
      expect(alpha.frequency[23][1]).toBe(2);
      expect(
        alpha.frequency.reduce(
          (n: number, [, c]: [number, number]) => n + c,
          0,
        ),
      ).toBe(2);

      const byFrequency = await gw.http
        .get(`${base()}/errors?sort=frequency`)
        .set(root)
        .expect(200);
      expect(byFrequency.body[0].id).toBe(alpha.id);
      const production = await gw.http
        .get(`${base()}/errors?environment=production`)
        .set(root)
        .expect(200);
      expect(production.body.map((e: { id: string }) => e.id)).toEqual([
        alpha.id,
      ]);
      const release = await gw.http
        .get(`${base()}/errors?release=r1`)
        .set(root)
        .expect(200);
      expect(release.body.map((e: { id: string }) => e.id)).toEqual([alpha.id]);
      const search = await gw.http
        .get(`${base()}/errors?search=quota 91%`)
        .set(root)
        .expect(200);
      expect(search.body.map((e: { title: string }) => e.title)).toEqual([
        'Disk quota 91% used',
      ]);

      const first = await gw.http
        .get(`${base()}/errors?per_page=2`)
        .set(root)
        .expect(200);
      expect(first.body).toHaveLength(2);
      const link = first.headers['link'] as string;
      expect(link).toMatch(/rel="next"/);
      const next = /<([^>]+)>/.exec(link)?.[1] as string;
      expect(next).toMatch(/^https:\/\/errors\.example\.com\/base\/api\/v4\//);
      const second = await gw.http
        .get(next.replace(PUBLIC_BASE_URL, ''))
        .set(root)
        .expect(200);
      expect(second.body).toHaveLength(1);
      expect(second.headers['link']).toBeUndefined();
      const ids = [...first.body, ...second.body].map(
        (e: { id: string }) => e.id,
      );
      expect(new Set(ids).size).toBe(3);
      await gw.http
        .get(`${base()}/errors?status=bogus`)
        .set(root)
        .expect(400, { error: 'status does not have a valid value' });
      await gw.http
        .get(`${base()}/errors?cursor=zzz`)
        .set(root)
        .expect(400, { error: 'cursor is invalid' });
    });

    it('shows the detailed entity, stack trace, occurrences and one occurrence', async () => {
      const eventId = await send(
        exceptionEvent('gamma', 20, {
          release: '0123456789abcdef',
          logger: 'console',
        }),
      );
      await send(
        exceptionEvent('gamma', 21, {
          release: '0123456789abcdef',
          logger: 'console',
        }),
      );
      const list = await gw.http
        .get(`${base()}/errors?search=gamma`)
        .set(root)
        .expect(200);
      const id = list.body[0].id;
      const detail = await gw.http
        .get(`${base()}/errors/${id}`)
        .set(root)
        .expect(200);
      expect(detail.body).toMatchObject({
        id,
        count: 2,
        first_release_version: '0123456789abcdef',
        first_release_short_version: '0123456789ab',
        last_release_short_version: '0123456789ab',
        tags: { level: 'error', logger: 'console' },
        gitlab_issue: null,
        external_url: `https://errors.example.com/base/projects/${project.id}/error_tracking/${id}`,
      });
      const trace = await gw.http
        .get(`${base()}/errors/${id}/stack_trace`)
        .set(root)
        .expect(200);
      expect(trace.body.error.issue_id).toBe(id);
      expect(
        trace.body.error.stack_trace_entries.map(
          (f: { function: string }) => f.function,
        ),
      ).toEqual(['main', 'gamma']);
      expect(trace.body.error.stack_trace_entries[1]).toMatchObject({
        lineNo: 21,
        colNo: 0,
        context: [[21, '  boom(gamma)']],
      });
      const events = await gw.http
        .get(`${base()}/errors/${id}/events?per_page=1`)
        .set(root)
        .expect(200);
      expect(events.body).toHaveLength(1);
      expect(events.body[0]).toMatchObject({
        level: 'error',
        environment: 'staging',
        title: 'TypeError: cannot read 21',
        user: { id: 'u-21' },
      });
      const older = /<([^>]+)>/.exec(
        events.headers['link'] as string,
      )?.[1] as string;
      const page2 = await gw.http
        .get(older.replace(PUBLIC_BASE_URL, ''))
        .set(root)
        .expect(200);
      expect(page2.body[0].event_id).toBe(eventId);
      const one = await gw.http
        .get(`${base()}/errors/${id}/events/${eventId}`)
        .set(root)
        .expect(200);
      expect(one.body).toMatchObject({
        event_id: eventId,
        release: '0123456789abcdef',
        received_at: expect.any(String),
      });
      await gw.http
        .get(`${base()}/errors/${id}/events/${'0'.repeat(32)}`)
        .set(root)
        .expect(404);
      await gw.http
        .get(`${base()}/errors/999999999`)
        .set(root)
        .expect(404, { message: '404 Error Not Found' });
    });

    it('stores and returns integers beyond 2^53 digit for digit', async () => {
      const big = '18446744073709551615';
      const sent = await sendRaw(gw.url, {
        path: `/api/v4/error_tracking/collector/api/${project.id}/store/?sentry_key=${project.publicKey}`,
        headers: { 'Content-Type': 'application/json' },
        body: Buffer.from(
          `{"message":"exact ids","threads":{"values":[{"id":${big}}]},"extra":{"address":-${big}}}`,
        ),
      });
      expect(sent.status).toBe(200);
      const eventId = sent.json()['id'] as string;
      const [row] = await gw.query<{ error_id: string; text: string }>(
        `SELECT error_id::text, payload::text AS text FROM error_tracking.events
          WHERE project_id = $1 AND event_id = $2`,
        [project.id, eventId],
      );
      expect(row?.text).toContain(`[{"id": ${big}}]`);
      const one = await gw.http
        .get(`${base()}/errors/${row?.error_id}/events/${eventId}`)
        .set(root)
        .expect(200)
        .expect('Content-Type', 'application/json');
      expect(one.text).toContain(`"id": ${big}`);
      expect(one.text).toContain(`"address": -${big}`);
      expect(one.body).toMatchObject({
        event_id: eventId,
        message: 'exact ids',
      });
    });

    it('creates an issue from an error once, closes it on resolve and reopens it on regression', async () => {
      await send(exceptionEvent('delta', 30));
      const id = (
        await gw.http.get(`${base()}/errors?search=delta`).set(root).expect(200)
      ).body[0].id;
      const created = await gw.http
        .post(`${base()}/errors/${id}/issue`)
        .set(root)
        .expect(201);
      expect(created.body).toMatchObject({
        iid: expect.any(Number),
        state: 'opened',
        title: 'TypeError: cannot read 30',
        project_id: project.id,
      });
      expect(created.body.description).toContain(`/error_tracking/${id}`);
      expect(created.body.description).toMatch(
        /```\ndelta \(app:30\)\n {4}boom\(delta\)\nmain \(app:1\)\n```/,
      );
      const again = await gw.http
        .post(`${base()}/errors/${id}/issue`)
        .set(root)
        .expect(200);
      expect(again.body.iid).toBe(created.body.iid);
      const detail = await gw.http
        .get(`${base()}/errors/${id}`)
        .set(root)
        .expect(200);
      expect(detail.body.gitlab_issue).toBe(created.body.web_url);

      const resolved = await gw.http
        .put(`${base()}/errors/${id}`)
        .set(root)
        .send({ status: 'resolved' })
        .expect(200);
      expect(resolved.body).toMatchObject({
        status: 'resolved',
        closed_issue_iid: created.body.iid,
      });
      const closed = await gw.http
        .get(`/api/v4/projects/${project.id}/issues/${created.body.iid}`)
        .set(root)
        .expect(200);
      expect(closed.body).toMatchObject({
        state: 'closed',
        closed_at: expect.any(String),
      });
      const resolvedList = await gw.http
        .get(`${base()}/errors?status=resolved`)
        .set(root)
        .expect(200);
      expect(resolvedList.body.map((e: { id: string }) => e.id)).toContain(id);

      await send(exceptionEvent('delta', 31));
      const regressed = await gw.http
        .get(`${base()}/errors/${id}`)
        .set(root)
        .expect(200);
      expect(regressed.body.status).toBe('unresolved');
      const reopened = await gw.http
        .get(`/api/v4/projects/${project.id}/issues/${created.body.iid}`)
        .set(root)
        .expect(200);
      expect(reopened.body).toMatchObject({ state: 'opened', closed_at: null });

      await gw.http
        .put(`${base()}/errors/${id}`)
        .set(root)
        .send({ status: 'ignored' })
        .expect(200);
      await send(exceptionEvent('delta', 32));
      expect(
        (await gw.http.get(`${base()}/errors/${id}`).set(root).expect(200)).body
          .status,
      ).toBe('ignored');
      await gw.http
        .put(`${base()}/errors/${id}`)
        .set(root)
        .send({ status: 'gone' })
        .expect(400, { error: 'status does not have a valid value' });
      const unresolved = await gw.http
        .put(`${base()}/errors/${id}`)
        .set(root)
        .send({ status: 'unresolved' })
        .expect(200);
      expect(unresolved.body.closed_issue_iid).toBeNull();
    });

    it('creates, lists, updates, closes and reopens plain issues', async () => {
      const path = `/api/v4/projects/${project.id}/issues`;
      const a = await gw.http
        .post(path)
        .set(root)
        .send({ title: 'First', description: '**md**', labels: 'bug,ui' })
        .expect(201);
      const b = await gw.http
        .post(path)
        .set(root)
        .send({ title: 'Second' })
        .expect(201);
      expect(b.body.iid).toBe(a.body.iid + 1);
      expect(a.body).toMatchObject({
        labels: ['bug', 'ui'],
        description: '**md**',
        state: 'opened',
        closed_at: null,
      });
      const updated = await gw.http
        .put(`${path}/${a.body.iid}`)
        .set(root)
        .send({ title: 'First!', state_event: 'close' })
        .expect(200);
      expect(updated.body).toMatchObject({ title: 'First!', state: 'closed' });
      const closed = await gw.http
        .get(`${path}?state=closed`)
        .set(root)
        .expect(200);
      expect(closed.body.map((i: { iid: number }) => i.iid)).toContain(
        a.body.iid,
      );
      const reopened = await gw.http
        .put(`${path}/${a.body.iid}`)
        .set(root)
        .send({ state_event: 'reopen' })
        .expect(200);
      expect(reopened.body.state).toBe('opened');
      await gw.http
        .post(path)
        .set(root)
        .send({})
        .expect(400, { error: 'title is missing' });
      await gw.http
        .get(`${path}/99999`)
        .set(root)
        .expect(404, { message: '404 Issue Not Found' });
    });
  });

  it('documents every error-tracking endpoint in OpenAPI', async () => {
    const res = await gw.http.get('/openapi.json').expect(200);
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/v4/user',
        '/api/v4/users',
        '/api/v4/users/{user_id}/personal_access_tokens',
        '/api/v4/personal_access_tokens',
        '/api/v4/personal_access_tokens/{id}',
        '/api/v4/projects',
        '/api/v4/projects/{id}',
        '/api/v4/projects/{id}/members',
        '/api/v4/projects/{id}/members/{user_id}',
        '/api/v4/projects/{id}/error_tracking/settings',
        '/api/v4/projects/{id}/error_tracking/client_keys',
        '/api/v4/projects/{id}/error_tracking/client_keys/{key_id}',
        '/api/v4/projects/{id}/error_tracking/errors',
        '/api/v4/projects/{id}/error_tracking/errors/{error_id}',
        '/api/v4/projects/{id}/error_tracking/errors/{error_id}/stack_trace',
        '/api/v4/projects/{id}/error_tracking/errors/{error_id}/events',
        '/api/v4/projects/{id}/error_tracking/errors/{error_id}/events/{event_id}',
        '/api/v4/projects/{id}/error_tracking/errors/{error_id}/events/{event_id}/navigation',
        '/api/v4/projects/{id}/error_tracking/errors/{error_id}/issue',
        '/api/v4/projects/{id}/error_tracking/release_health',
        '/api/v4/projects/{id}/issues',
        '/api/v4/projects/{id}/issues/{iid}',
        '/api/v4/error_tracking/collector/api/{projectId}/envelope',
        '/api/v4/error_tracking/collector/api/{projectId}/store',
      ]),
    );
  });

  it('answers unknown API routes in GitLab format', async () => {
    await gw.http
      .get('/api/v4/nothing/here')
      .set(root)
      .expect(404, { error: '404 Not Found' });
  });
});
