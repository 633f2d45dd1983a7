import type { TestingModule } from '@nestjs/testing';
import type { Sql } from '@quitanda/database';
import { FixedClock } from '@quitanda/kernel';
import {
  defined,
  openTestDatabase,
  SmtpSink,
  WebhookReceiver,
} from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import {
  errorTrackingTestModule,
  seedProject,
  sqlOf,
} from '../../testing/error-tracking-test-module';
import { ingestRequest } from '../../testing/ingest-request';
import { ErrorTrackingError } from '../common/error-tracking.errors';
import type { JsonObject } from '../sentry-event/event-json';
import { IngestionQueue } from '../ingestion/ingestion-queue';
import { IngestionModule } from '../ingestion/ingestion.module';
import type { ProjectAccess } from '../projects/project.types';
import type { WebhookBody } from './alert-content';
import type { AlertsOptions } from '../common/error-tracking.options';
import { AlertsModule } from './alerts.module';
import { AlertsService } from './alerts.service';
import { AlertsWorker } from './alerts-worker';
import { RetentionModule } from '../retention/retention.module';
import { RetentionRepository } from '../retention/retention.repository';

const MINUTE = 60_000;
const TOKEN = 'receiver-secret-token';

describe('alerts (outbox, worker, webhooks, e-mail) against the database', () => {
  let database: TestDatabase;
  let receiver: WebhookReceiver;
  let smtp: SmtpSink;
  const modules: TestingModule[] = [];
  const module = (index: number) => defined(modules[index]);
  const clock = new FixedClock('2026-11-22T10:00:00.000Z');
  let sql: Sql;
  let queue: IngestionQueue;
  let alerts: AlertsService;
  let worker: AlertsWorker;

  async function open(options: Partial<AlertsOptions>): Promise<TestingModule> {
    const module = await errorTrackingTestModule(
      database.url,
      { imports: [IngestionModule, AlertsModule, RetentionModule] },
      {
        alerts: {
          allowLocalTargets: true,
          encryptionKey: 'a-test-key-of-at-least-32-characters!!',
          retryDelaysSeconds: [60, 300],
          // The specs run the worker by hand (runOnce), never on a timer.
          pollSeconds: 0,
          ...options,
        },
      },
      clock,
    );
    await module.init();
    modules.push(module);
    return module;
  }

  beforeAll(async () => {
    database = await openTestDatabase();
    receiver = await WebhookReceiver.start();
    smtp = await SmtpSink.start();
    const module = await open({
      smtpUrl: smtp.url,
      from: 'Quitanda <alerts@quitanda.test>',
    });
    sql = sqlOf(module);
    queue = module.get(IngestionQueue);
    alerts = module.get(AlertsService);
    worker = module.get(AlertsWorker);
  });

  afterAll(async () => {
    for (const module of modules) await module.close();
    await receiver?.close();
    await smtp?.close();
    await database?.close();
  });

  let nextEvent = 1;
  function event(message: string): JsonObject {
    return {
      event_id: (nextEvent++).toString(16).padStart(32, '0'),
      timestamp: clock.now().toISOString(),
      exception: [{ type: 'TypeError', value: message }],
      release: 'web@1.2.3',
      user: { id: 'u1' },
    };
  }

  async function ingest(
    project: { projectId: number; keyId: number },
    ...raws: JsonObject[]
  ): Promise<void> {
    // One request per event, concurrently: they share flushes.
    await Promise.all(
      raws.map((raw) =>
        queue.submit(ingestRequest(project, [raw], clock.now())),
      ),
    );
  }

  async function outbox(projectId: number) {
    return sql.rows<{ trigger: string; error_id: string }>(
      `SELECT trigger, error_id FROM error_tracking.alerts
        WHERE project_id = $1 ORDER BY id`,
      [projectId],
    );
  }

  async function accessTo(projectId: number): Promise<ProjectAccess> {
    const [row] = await sql.rows<{ name: string; path: string }>(
      'SELECT name, path FROM error_tracking.projects WHERE id = $1',
      [projectId],
    );
    return {
      project: {
        id: projectId,
        name: defined(row).name,
        path: defined(row).path,
        description: '',
        createdAt: new Date(),
        trackingActive: true,
        trackingIntegrated: true,
      },
      accessLevel: 50,
    };
  }

  async function member(projectId: number, name: string, level: number) {
    const [user] = await sql.rows<{ id: number }>(
      `INSERT INTO error_tracking.users (username, name, email, is_admin, password_hash, created_at)
       VALUES ($1, $1, $2, false, 'x', now()) RETURNING id`,
      [`${name}-${projectId}`, `${name}-${projectId}@example.test`],
    );
    await sql.rows(
      `INSERT INTO error_tracking.project_members (project_id, user_id, access_level, created_at)
       VALUES ($1, $2, $3, now())`,
      [projectId, defined(user).id, level],
    );
    return defined(user).id;
  }

  it('records one `new` alert however many events a new error gets, and one `regression` when it comes back', async () => {
    const project = await seedProject(sql);
    await ingest(project, ...Array.from({ length: 25 }, () => event('boom')));
    await ingest(project, event('boom'), event('boom'));
    expect((await outbox(project.projectId)).map((a) => a.trigger)).toEqual([
      'new',
    ]);
    const errorId = defined((await outbox(project.projectId))[0]).error_id;

    await sql.rows(
      `UPDATE error_tracking.errors SET status = 'resolved' WHERE id = $1`,
      [errorId],
    );
    await ingest(project, ...Array.from({ length: 10 }, () => event('boom')));
    await ingest(project, event('boom'));
    expect(await outbox(project.projectId)).toEqual([
      { trigger: 'new', error_id: errorId },
      { trigger: 'regression', error_id: errorId },
    ]);
    // An ignored error stays quiet.
    await sql.rows(
      `UPDATE error_tracking.errors SET status = 'ignored' WHERE id = $1`,
      [errorId],
    );
    await ingest(project, event('boom'));
    expect(await outbox(project.projectId)).toHaveLength(2);
  });

  it('fires `frequent` once per error and window when the threshold is crossed', async () => {
    const project = await seedProject(sql);
    await alerts.setRules(await accessTo(project.projectId), {
      frequentThreshold: 5,
      frequentWindowMinutes: 10,
    });
    await ingest(project, event('hot'), event('hot'), event('hot'));
    await ingest(project, event('cold'));
    expect((await outbox(project.projectId)).map((a) => a.trigger)).toEqual([
      'new',
      'new',
    ]);
    await ingest(project, event('hot'), event('hot'));
    await ingest(project, ...Array.from({ length: 20 }, () => event('hot')));
    const triggers = (await outbox(project.projectId)).map((a) => a.trigger);
    expect(triggers).toEqual(['new', 'new', 'frequent']);

    clock.advance(10 * MINUTE);
    await ingest(project, ...Array.from({ length: 6 }, () => event('hot')));
    expect(
      (await outbox(project.projectId)).filter((a) => a.trigger === 'frequent'),
    ).toHaveLength(2);
  });

  it('delivers each alert to each hook once, retrying a refusal under the same delivery id', async () => {
    const project = await seedProject(sql);
    const access = await accessTo(project.projectId);
    const hook = await alerts.createHook(access, {
      url: receiver.url,
      token: TOKEN,
    });
    expect(JSON.stringify(hook)).not.toContain(TOKEN);
    const [stored] = await sql.rows<{ token_ciphertext: string }>(
      'SELECT token_ciphertext FROM error_tracking.webhooks WHERE id = $1',
      [hook.id],
    );
    expect(defined(stored).token_ciphertext).not.toContain(TOKEN);
    const before = receiver.requests.length;
    receiver.respondWith(500);

    const sentAt = clock.now().toISOString();
    await ingest(project, event('checkout failed'));
    await worker.runOnce();
    expect(receiver.requests.length).toBe(before + 1);
    // Not due yet: nothing is sent again.
    await worker.runOnce();
    expect(receiver.requests.length).toBe(before + 1);

    clock.advance(61_000);
    await worker.runOnce();
    const [first, second] = receiver.requests.slice(before);
    expect(receiver.requests.length).toBe(before + 2);
    expect(defined(first).status).toBe(500);
    expect(defined(second).status).toBe(200);
    for (const request of [defined(first), defined(second)]) {
      expect(request.method).toBe('POST');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['x-gitlab-event']).toBe('Error Tracking Hook');
      expect(request.headers['x-gitlab-token']).toBe(TOKEN);
      expect(request.headers['idempotency-key']).toBe(
        request.headers['x-gitlab-event-uuid'],
      );
    }
    expect(defined(second).headers['x-gitlab-event-uuid']).toBe(
      defined(first).headers['x-gitlab-event-uuid'],
    );
    const body = JSON.parse(defined(second).body) as WebhookBody;
    expect(body).toMatchObject({
      object_kind: 'error_tracking',
      action: 'new',
      project: { id: project.projectId },
      error: {
        title: 'TypeError: checkout failed',
        status: 'unresolved',
        count: 1,
        project_id: project.projectId,
      },
      event: { release: 'web@1.2.3', user: { id: 'u1' } },
    });
    expect(body.event.event_id).toMatch(/^[0-9a-f]{32}$/);
    expect(body.event.timestamp).toBe(sentAt);
    expect(body.event.title).toBe('TypeError: checkout failed');
    expect(body.error.frequency).toHaveLength(24);
    expect(body.url).toMatch(
      new RegExp(
        `/projects/${project.projectId}/error_tracking/${body.error.id}$`,
      ),
    );

    const log = await alerts.attempts(access, hook.id, 20);
    expect(
      log.attempts.map((a) => [a.trigger, a.attempt, a.responseStatus]),
    ).toEqual([
      ['new', 2, 200],
      ['new', 1, 500],
    ]);
    // Delivered: nothing is left to send.
    clock.advance(3_600_000);
    await worker.runOnce();
    expect(receiver.requests.length).toBe(before + 2);
  });

  it('marks a delivery failed after the last retry', async () => {
    const project = await seedProject(sql);
    const access = await accessTo(project.projectId);
    const hook = await alerts.createHook(access, { url: receiver.url });
    const before = receiver.requests.length;
    receiver.respondWith(503, 503, 503);
    await ingest(project, event('never accepted'));
    await worker.runOnce();
    clock.advance(60_000);
    await worker.runOnce();
    clock.advance(300_000);
    await worker.runOnce();
    clock.advance(3_600_000);
    await worker.runOnce();
    expect(receiver.requests.length).toBe(before + 3);
    const [delivery] = await sql.rows<{ status: string; attempts: number }>(
      `SELECT status, attempts FROM error_tracking.alert_deliveries WHERE hook_id = $1`,
      [hook.id],
    );
    expect(delivery).toEqual({ status: 'failed', attempts: 3 });
  });

  it('lets replicas share the work: two workers running at once send each delivery once', async () => {
    const other = await open({});
    const otherWorker = other.get(AlertsWorker);
    const project = await seedProject(sql);
    const access = await accessTo(project.projectId);
    await alerts.createHook(access, { url: receiver.url });
    await alerts.createHook(access, { url: `${receiver.url}?second` });
    const before = receiver.requests.length;
    await ingest(
      project,
      ...Array.from({ length: 6 }, (_, i) => event(`distinct ${'abcdef'[i]}`)),
    );
    await Promise.all([worker.runOnce(), otherWorker.runOnce()]);
    await Promise.all([worker.runOnce(), otherWorker.runOnce()]);
    const sent = receiver.requests.slice(before);
    expect(sent).toHaveLength(12);
    expect(
      new Set(sent.map((r) => r.headers['x-gitlab-event-uuid'])).size,
    ).toBe(12);
  });

  it('e-mails members with developer access or more who have not opted out, one message each', async () => {
    const project = await seedProject(sql);
    const access = await accessTo(project.projectId);
    const owner = await member(project.projectId, 'owner', 50);
    await member(project.projectId, 'dev', 30);
    await member(project.projectId, 'reporter', 20);
    const quiet = await member(project.projectId, 'quiet', 40);
    await alerts.setOptOut(access, quiet, true);
    expect(await alerts.isOptedOut(access, quiet)).toBe(true);
    expect(await alerts.isOptedOut(access, owner)).toBe(false);
    const before = smtp.messages.length;

    await ingest(project, event('mail me <b>now</b>'));
    await worker.runOnce();
    const mails = (await smtp.waitFor(before + 2)).slice(before);
    await worker.runOnce();
    expect(smtp.messages.length).toBe(before + 2);
    expect(mails.map((m) => m.to).sort()).toEqual([
      [`dev-${project.projectId}@example.test`],
      [`owner-${project.projectId}@example.test`],
    ]);
    for (const mail of mails) {
      // Quoted-printable, as nodemailer writes long lines.
      const raw = mail.raw
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) =>
          String.fromCharCode(parseInt(hex, 16)),
        );
      expect(mail.from).toBe('alerts@quitanda.test');
      expect(raw).toMatch(/^Subject: .*New error/m);
      expect(raw).toContain('Content-Type: text/plain');
      expect(raw).toContain('Content-Type: text/html');
      expect(raw).toContain('TypeError: mail me <b>now</b>');
      expect(raw).toContain(
        '<h1 style="font-size: 18px">TypeError: mail me &lt;b&gt;now&lt;/b&gt;</h1>',
      );
      expect(raw).toContain(`/projects/${project.projectId}/error_tracking/`);
      expect(raw).toContain('Users affected: 1');
    }
  });

  it('refuses hooks to local addresses unless allowed, and never sends to a name that resolves to one', async () => {
    const strict = await open({ allowLocalTargets: false });
    const strictAlerts = strict.get(AlertsService);
    const project = await seedProject(sql);
    const access = await accessTo(project.projectId);
    for (const url of [
      'http://127.0.0.1:9/x',
      'http://[::1]/x',
      'http://169.254.169.254/latest/meta-data',
      'http://10.1.2.3/x',
      'http://192.168.1.1/x',
      'http://localhost:8080/x',
      'ftp://example.com/x',
    ]) {
      await expect(
        strictAlerts.createHook(access, { url }),
      ).rejects.toBeInstanceOf(ErrorTrackingError);
    }
    // Allowed where the operator said so; the strict replica still refuses it.
    const hook = await alerts.createHook(access, {
      url: receiver.url.replace('127.0.0.1', 'localhost'),
    });
    const before = receiver.requests.length;
    const outcome = await strictAlerts.test(access, hook.id);
    expect(outcome.delivered).toBe(false);
    expect(outcome.error).toMatch(/is blocked: Requests to localhost/);
    expect(receiver.requests.length).toBe(before);
    await expect(alerts.test(access, hook.id)).resolves.toMatchObject({
      delivered: true,
      status: 200,
    });
    expect(receiver.requests.length).toBe(before + 1);
    const log = await alerts.attempts(access, hook.id, 10);
    expect(log.attempts.map((a) => [a.trigger, a.responseStatus])).toEqual([
      ['test', 200],
      ['test', null],
    ]);
  });

  it('lets retention forget settled deliveries, the delivery log and old alerts, never a pending one', async () => {
    const project = await seedProject(sql);
    const access = await accessTo(project.projectId);
    const hook = await alerts.createHook(access, { url: receiver.url });
    receiver.respondWith(500);
    await ingest(project, event('old news'));
    await ingest(project, event('still failing'));
    await worker.runOnce();
    receiver.respondWith(500);
    clock.advance(61_000);
    await worker.runOnce();
    const count = async (table: string) => {
      const [row] = await sql.rows<{ n: number }>(
        `SELECT count(*)::int AS n FROM error_tracking.${table} WHERE ${
          table === 'webhook_attempts' ? 'hook_id' : 'project_id'
        } = $1`,
        [table === 'webhook_attempts' ? hook.id : project.projectId],
      );
      return defined(row).n;
    };
    const states = await sql.rows<{ status: string }>(
      `SELECT status FROM error_tracking.alert_deliveries WHERE hook_id = $1 ORDER BY id`,
      [hook.id],
    );
    expect(states.map((s) => s.status).sort()).toEqual([
      'delivered',
      'pending',
    ]);

    const later = new Date(clock.now().getTime() + 86_400_000);
    await module(0).get(RetentionRepository).run(later, later, 0);
    expect(await count('webhook_attempts')).toBe(0);
    const left = await sql.rows<{ status: string }>(
      `SELECT status FROM error_tracking.alert_deliveries WHERE hook_id = $1`,
      [hook.id],
    );
    expect(left.map((s) => s.status)).toEqual(['pending']);
    expect(await count('alerts')).toBe(1);
  });
});
