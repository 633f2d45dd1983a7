import { SmtpSink, WebhookReceiver, defined } from '@quitanda/testing';
import type { ReceivedRequest } from '@quitanda/testing';

import {
  ROOT_TOKEN,
  createTrackedProject,
  createUser,
  sendRaw,
  startErrorTrackingGateway,
} from './error-tracking-support';
import type { ErrorTrackingGateway, TestUser } from './error-tracking-support';

const root = { 'PRIVATE-TOKEN': ROOT_TOKEN };
const HOOK_TOKEN = 'e2e-hook-secret-token';

/** Resolves once `check` holds (polled; rejects after `timeoutMs`). */
async function until(
  check: () => Promise<boolean>,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('error-tracking alerts (e2e: webhooks and e-mail)', () => {
  let gw: ErrorTrackingGateway;
  let receiver: WebhookReceiver;
  let smtp: SmtpSink;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    smtp = await SmtpSink.start();
    gw = await startErrorTrackingGateway({
      ALERTS_ALLOW_LOCAL_TARGETS: 'true',
      ALERTS_RETRY_DELAYS_SECONDS: '1,1',
      ALERTS_POLL_SECONDS: '1',
      ALERTS_ENCRYPTION_KEY: 'e2e-alerts-encryption-key-0123456789',
      SMTP_URL: smtp.url,
      ALERTS_FROM: 'Quitanda <alerts@quitanda.test>',
    });
  });

  afterAll(async () => {
    await gw?.close();
    await receiver?.close();
    await smtp?.close();
  });

  function store(
    project: { id: number; publicKey: string },
    event: Record<string, unknown>,
  ) {
    return sendRaw(gw.url, {
      path: `/api/v4/error_tracking/collector/api/${project.id}/store/?sentry_key=${project.publicKey}`,
      headers: { 'Content-Type': 'application/json' },
      body: Buffer.from(JSON.stringify(event)),
    });
  }

  async function pendingDeliveries(projectId: number): Promise<number> {
    const [row] = await gw.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM error_tracking.alert_deliveries
                WHERE project_id = $1 AND status = 'pending')::int
            + (SELECT count(*) FROM error_tracking.alerts
                WHERE project_id = $1 AND fanned_out_at IS NULL)::int AS n`,
      [projectId],
    );
    return defined(row).n;
  }

  async function addMember(projectId: number, user: TestUser, level: number) {
    await gw.http
      .post(`/api/v4/projects/${projectId}/members`)
      .set(root)
      .send({ user_id: user.id, access_level: level })
      .expect(201);
  }

  it('sends one `new` and one `regression` alert, retried until the receiver accepts, and e-mails the members', async () => {
    const project = await createTrackedProject(gw);
    const developer = await createUser(gw);
    const reporter = await createUser(gw);
    await addMember(project.id, developer, 30);
    await addMember(project.id, reporter, 20);
    const hook = await gw.http
      .post(`/api/v4/projects/${project.id}/hooks`)
      .set(root)
      .send({
        url: receiver.url,
        token: HOOK_TOKEN,
        error_tracking_events: true,
      })
      .expect(201);
    expect(hook.body).toMatchObject({
      url: receiver.url,
      project_id: project.id,
      error_tracking_events: true,
      enable_ssl_verification: true,
      push_events: false,
    });
    expect(hook.body).not.toHaveProperty('token');
    const before = receiver.requests.length;
    const mailsBefore = smtp.messages.length;
    receiver.respondWith(500);

    const event = (n: number) => ({
      event_id: `${'e'.repeat(28)}${String(n).padStart(4, '0')}`,
      exception: { values: [{ type: 'RangeError', value: 'cart is empty' }] },
      release: 'shop@2.0.0',
    });
    for (let i = 0; i < 5; i++)
      expect((await store(project, event(i))).status).toBe(200);

    const [refused, accepted] = await receiver
      .waitFor(before + 2)
      .then((r) => r.slice(before));
    expect(defined(refused).status).toBe(500);
    expect(defined(accepted).status).toBe(200);
    const uuid = defined(refused).headers['x-gitlab-event-uuid'];
    expect(uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(defined(accepted).headers['x-gitlab-event-uuid']).toBe(uuid);
    expect(defined(accepted).headers['idempotency-key']).toBe(uuid);
    expect(defined(accepted).headers['x-gitlab-event']).toBe(
      'Error Tracking Hook',
    );
    expect(defined(accepted).headers['x-gitlab-token']).toBe(HOOK_TOKEN);
    const body = JSON.parse(defined(accepted).body);
    expect(body).toMatchObject({
      object_kind: 'error_tracking',
      action: 'new',
      project: { id: project.id },
      error: { title: 'RangeError: cart is empty', project_id: project.id },
      event: { release: 'shop@2.0.0' },
    });
    expect(body.url).toBe(
      `${gw.url}/projects/${project.id}/error_tracking/${body.error.id}`,
    );

    // Owner (root) and the developer get one e-mail each; the reporter none.
    const mails = (await smtp.waitFor(mailsBefore + 2)).slice(mailsBefore);
    expect(mails.map((m) => m.to[0]).sort()).toEqual(
      [
        `${developer.username}@example.com`,
        defined(
          (await gw.http.get('/api/v4/user').set(root)).body.email as string,
        ),
      ].sort(),
    );

    await gw.http
      .put(
        `/api/v4/projects/${project.id}/error_tracking/errors/${body.error.id}`,
      )
      .set(root)
      .send({ status: 'resolved' })
      .expect(200);
    for (let i = 5; i < 9; i++)
      expect((await store(project, event(i))).status).toBe(200);
    const regression = defined(
      (await receiver.waitFor(before + 3))[before + 2],
    );
    expect(JSON.parse(regression.body)).toMatchObject({
      action: 'regression',
      error: { id: body.error.id, status: 'unresolved' },
    });
    expect(regression.headers['x-gitlab-event-uuid']).not.toBe(uuid);

    await until(
      async () => (await pendingDeliveries(project.id)) === 0,
      'every delivery settled',
    );
    expect(receiver.requests.length).toBe(before + 3);
    expect(smtp.messages.length).toBe(mailsBefore + 4);

    const log = await gw.http
      .get(`/api/v4/projects/${project.id}/hooks/${hook.body.id}/events`)
      .set(root)
      .expect(200);
    expect(
      log.body.map(
        (e: { trigger: string; attempt: number; response_status: number }) => [
          e.trigger,
          e.attempt,
          e.response_status,
        ],
      ),
    ).toEqual([
      ['regression', 1, 200],
      ['new', 2, 200],
      ['new', 1, 500],
    ]);
    expect(log.body[2].event_uuid).toBe(uuid);
    expect(typeof log.body[0].execution_duration).toBe('number');
  });

  it("manages hooks with GitLab's REST shapes and roles, and sends a test", async () => {
    const project = await createTrackedProject(gw);
    const developer = await createUser(gw);
    const stranger = await createUser(gw);
    await addMember(project.id, developer, 30);
    const path = `/api/v4/projects/${project.id}/hooks`;

    await gw.http.get(path).expect(401);
    await gw.http
      .get(path)
      .set('PRIVATE-TOKEN', developer.token)
      .expect(403, { message: '403 Forbidden' });
    await gw.http
      .get(path)
      .set('PRIVATE-TOKEN', stranger.token)
      .expect(404, { message: '404 Project Not Found' });
    await gw.http
      .post(path)
      .set(root)
      .send({})
      .expect(400, { error: 'url is missing' });
    await gw.http
      .post(path)
      .set(root)
      .send({ url: 'gopher://example.com/' })
      .expect(400, {
        message: { url: ['is blocked: Only allowed schemes are http, https'] },
      });

    const created = await gw.http
      .post(path)
      .set(root)
      .send({ url: receiver.url })
      .expect(201);
    const hookPath = `${path}/${created.body.id}`;
    await gw.http
      .get(path)
      .set(root)
      .expect(200)
      .expect((res) => {
        expect(res.body.map((h: { id: number }) => h.id)).toEqual([
          created.body.id,
        ]);
      });
    const updated = await gw.http
      .put(hookPath)
      .set(root)
      .send({ enable_ssl_verification: false, token: 'changed-token' })
      .expect(200);
    expect(updated.body).toMatchObject({
      id: created.body.id,
      enable_ssl_verification: false,
      url: receiver.url,
    });
    expect(updated.body).not.toHaveProperty('token');

    const before = receiver.requests.length;
    await gw.http
      .post(`${hookPath}/test/error_tracking`)
      .set(root)
      .expect(201, { message: '201 Created' });
    const test = defined(receiver.requests[before]);
    expect(test.headers['x-gitlab-token']).toBe('changed-token');
    expect(JSON.parse(test.body)).toMatchObject({
      object_kind: 'error_tracking',
      project: { id: project.id },
    });
    receiver.respondWith(502);
    await gw.http
      .post(`${hookPath}/test/error_tracking`)
      .set(root)
      .expect(422, { message: 'Hook execution failed: HTTP 502' });
    await gw.http.post(`${hookPath}/test/push_events`).set(root).expect(400);
    const events = await gw.http
      .get(`${hookPath}/events`)
      .set(root)
      .expect(200);
    expect(events.headers['x-total']).toBe('2');
    expect(
      events.body.map((e: { response_status: number }) => e.response_status),
    ).toEqual([502, 200]);

    await gw.http.delete(hookPath).set(root).expect(204);
    await gw.http
      .get(hookPath)
      .set(root)
      .expect(404, { message: '404 Hook Not Found' });
    await gw.http.delete(hookPath).set(root).expect(404);
  });

  it("drops a hook's token when another maintainer moves its URL, unless a new one comes with it", async () => {
    const project = await createTrackedProject(gw);
    const second = await createUser(gw);
    await addMember(project.id, second, 40);
    const hookPath = `/api/v4/projects/${project.id}/hooks`;
    const created = await gw.http
      .post(hookPath)
      .set(root)
      .send({ url: receiver.url, token: 'first-maintainers-secret' })
      .expect(201);
    const hook = `${hookPath}/${created.body.id}`;
    const moved = `${receiver.url}/moved`;

    async function sendTest(): Promise<ReceivedRequest> {
      const before = receiver.requests.length;
      await gw.http
        .post(`${hook}/test/error_tracking`)
        .set('PRIVATE-TOKEN', second.token)
        .expect(201);
      return defined(receiver.requests[before]);
    }

    // Other changes keep the token.
    await gw.http
      .put(hook)
      .set('PRIVATE-TOKEN', second.token)
      .send({ url: receiver.url, enable_ssl_verification: false })
      .expect(200);
    expect((await sendTest()).headers['x-gitlab-token']).toBe(
      'first-maintainers-secret',
    );
    await gw.http
      .put(hook)
      .set('PRIVATE-TOKEN', second.token)
      .send({ url: moved })
      .expect(200)
      .expect((res) => expect(res.body.url).toBe(moved));
    const toMoved = await sendTest();
    expect(toMoved.path).toBe('/hook/moved');
    expect(toMoved.headers).not.toHaveProperty('x-gitlab-token');
    await gw.http
      .put(hook)
      .set('PRIVATE-TOKEN', second.token)
      .send({ url: receiver.url, token: 'second-maintainers-secret' })
      .expect(200);
    expect((await sendTest()).headers['x-gitlab-token']).toBe(
      'second-maintainers-secret',
    );
  });

  it('reads and changes the `frequent` rule (reporter reads, maintainer changes)', async () => {
    const project = await createTrackedProject(gw);
    const reporter = await createUser(gw);
    await addMember(project.id, reporter, 20);
    const path = `/api/v4/projects/${project.id}/error_tracking/alerts`;
    await gw.http
      .get(path)
      .set('PRIVATE-TOKEN', reporter.token)
      .expect(200, { frequent_threshold: null, frequent_window_minutes: 60 });
    await gw.http
      .put(path)
      .set('PRIVATE-TOKEN', reporter.token)
      .send({ frequent_threshold: 5 })
      .expect(403);
    await gw.http
      .put(path)
      .set(root)
      .send({})
      .expect(400, { error: 'frequent_threshold is missing' });
    await gw.http
      .put(path)
      .set(root)
      .send({ frequent_threshold: -1, frequent_window_minutes: 'x' })
      .expect(400, {
        error:
          'frequent_threshold does not have a valid value, frequent_window_minutes is invalid',
      });
    await gw.http
      .put(path)
      .set(root)
      .send({ frequent_threshold: 3, frequent_window_minutes: 5 })
      .expect(200, { frequent_threshold: 3, frequent_window_minutes: 5 });
    await gw.http
      .get(path)
      .set(root)
      .expect(200, { frequent_threshold: 3, frequent_window_minutes: 5 });
    await gw.http
      .put(`${path}?frequent_threshold=`)
      .set(root)
      .expect(200, { frequent_threshold: null, frequent_window_minutes: 60 });
  });
});
