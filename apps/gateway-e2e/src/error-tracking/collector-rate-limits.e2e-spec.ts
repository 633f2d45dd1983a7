import { randomUUID } from 'node:crypto';

import { defined } from '@quitanda/testing';

import {
  createTrackedProject,
  sendRaw,
  startErrorTrackingGateway,
} from './error-tracking-support';
import type {
  ErrorTrackingGateway,
  RawResponse,
} from './error-tracking-support';

const LIMIT = 3;

function envelope(item: object, payload: object): Buffer {
  return Buffer.from(
    [JSON.stringify({}), JSON.stringify(item), JSON.stringify(payload)].join(
      '\n',
    ),
  );
}

function sessionEnvelope(): Buffer {
  return envelope(
    { type: 'session' },
    {
      sid: randomUUID(),
      status: 'ok',
      started: new Date().toISOString(),
      attrs: { release: 'app@1.0.0', environment: 'production' },
    },
  );
}

function clientReportEnvelope(): Buffer {
  return envelope(
    { type: 'client_report' },
    {
      discarded_events: [
        { reason: 'queue_overflow', category: 'error', quantity: 1 },
      ],
    },
  );
}

function eventEnvelope(): Buffer {
  return envelope(
    { type: 'event' },
    { event_id: randomUUID().replace(/-/g, ''), message: 'still counted' },
  );
}

describe('collector rate limits per Sentry data category (e2e)', () => {
  let gw: ErrorTrackingGateway;

  beforeAll(async () => {
    gw = await startErrorTrackingGateway({
      ERROR_TRACKING_RATE_LIMIT_PER_MINUTE: String(LIMIT),
    });
  });

  afterAll(async () => {
    await gw?.close();
  });

  /**
   * Sends `body()` until a 429 (within one minute's window or the next:
   * ten requests cannot all fit under a limit of three across two windows).
   */
  async function sendUntilLimited(
    project: { id: number; publicKey: string },
    body: () => Buffer,
  ): Promise<{ accepted: number; limited: RawResponse | undefined }> {
    const path = `/api/v4/error_tracking/collector/api/${project.id}/envelope/?sentry_key=${project.publicKey}`;
    let accepted = 0;
    for (let i = 0; i < 10; i++) {
      const res = await sendRaw(gw.url, { path, body: body() });
      if (res.status === 429) return { accepted, limited: res };
      expect(res.status).toBe(200);
      accepted += 1;
    }
    return { accepted, limited: undefined };
  }

  function expectLimited(res: RawResponse | undefined, category: string) {
    const limited = defined(res, `a 429 for ${category}`);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers['x-sentry-rate-limits']).toBe(
      `${retryAfter}:${category}:key`,
    );
  }

  it('limits sessions in their own category and records none past the limit', async () => {
    const project = await createTrackedProject(gw);
    const { accepted, limited } = await sendUntilLimited(
      project,
      sessionEnvelope,
    );
    expectLimited(limited, 'session');
    const [recorded] = await gw.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM error_tracking.release_sessions
        WHERE project_id = $1`,
      [project.id],
    );
    expect(defined(recorded).n).toBe(accepted);
    // Errors have a quota of their own.
    const event = await sendRaw(gw.url, {
      path: `/api/v4/error_tracking/collector/api/${project.id}/envelope/?sentry_key=${project.publicKey}`,
      body: eventEnvelope(),
    });
    expect(event.status).toBe(200);
  });

  it('limits client reports too, recording none past the limit', async () => {
    const project = await createTrackedProject(gw);
    const { accepted, limited } = await sendUntilLimited(
      project,
      clientReportEnvelope,
    );
    expectLimited(limited, 'internal');
    const [recorded] = await gw.query<{ n: number }>(
      `SELECT coalesce(sum(quantity), 0)::int AS n
         FROM error_tracking.discarded_events
        WHERE project_id = $1 AND source = 'client'`,
      [project.id],
    );
    expect(defined(recorded).n).toBe(accepted);
  });

  it('limits stored attachments under `attachment`, keeping none of a refused request', async () => {
    const project = await createTrackedProject(gw);
    // One event and two attachments: the second request asks for a fourth.
    const withAttachments = () =>
      Buffer.concat([
        eventEnvelope(),
        ...['a.txt', 'b.txt'].map((filename) =>
          Buffer.from(
            `\n${JSON.stringify({ type: 'attachment', filename, length: 3 })}\nabc`,
          ),
        ),
      ]);
    const { accepted, limited } = await sendUntilLimited(
      project,
      withAttachments,
    );
    expectLimited(limited, 'attachment');
    // Those of accepted requests only, each linked to its event.
    const stored = await gw.query<{ linked: boolean }>(
      `SELECT event_id IS NOT NULL AS linked
         FROM error_tracking.event_attachments WHERE project_id = $1`,
      [project.id],
    );
    expect(stored).toEqual(
      Array.from({ length: 2 * accepted }, () => ({ linked: true })),
    );
  });

  it('limits events under `error`', async () => {
    const project = await createTrackedProject(gw);
    const { limited } = await sendUntilLimited(project, eventEnvelope);
    expectLimited(limited, 'error');
  });
});
