import { randomBytes } from 'node:crypto';

import { inconsistentErrors } from './mixed-load';
import type { PrivatePostgres } from './private-postgres';
import { send } from './scenario';
import type { Answer } from './scenario';

export interface SdkProject {
  readonly id: number;
  readonly publicKey: string;
}

const CLIENTS = {
  python: 'sentry.python/2.0.0',
  javascript: 'sentry.javascript.browser/8.0.0',
  node: 'sentry.javascript.node/8.0.0',
} as const;

/** Error kinds the load raises: each one error (group) in the project. */
const KINDS = ['ValueError', 'KeyError', 'TimeoutError'] as const;

/** One envelope sent, and how it was answered. */
export interface SentEnvelope {
  readonly eventId: string;
  readonly kind: (typeof KINDS)[number];
  readonly sentAt: number;
  readonly answer: Answer;
}

/**
 * What the SDK is: Python's by default; JavaScript's (browser) and Node's
 * send frames at URLs and paths, which the collector looks up source maps
 * for under the event's release (`release` may change from one event to
 * the next, so that lookups keep reaching the database).
 */
export interface SdkShape {
  readonly platform?: 'python' | 'javascript' | 'node';
  readonly release?: () => string;
}

function framesOf(platform: NonNullable<SdkShape['platform']>) {
  switch (platform) {
    case 'python':
      return [
        { function: 'handle', module: 'app.views', lineno: 10 },
        { function: 'work', module: 'app.jobs', lineno: 20 },
      ];
    case 'javascript':
      return [
        {
          function: 'n',
          abs_path: 'https://shop.example/static/app.min.js',
          lineno: 1,
          colno: 1024,
          in_app: true,
        },
        {
          function: 'r',
          abs_path: 'https://shop.example/static/vendor.min.js',
          lineno: 2,
          colno: 88,
          in_app: false,
        },
      ];
    case 'node':
      return [
        {
          function: 'handle',
          abs_path: '/srv/app/dist/server.js',
          filename: 'app:///dist/server.js',
          lineno: 3,
          colno: 512,
          in_app: true,
        },
        {
          function: 'work',
          abs_path: '/srv/app/dist/jobs.js',
          filename: 'app:///dist/jobs.js',
          lineno: 7,
          colno: 64,
          in_app: true,
        },
      ];
  }
}

/**
 * An envelope as a server SDK sends one (Python's: header with the DSN and
 * sent_at, an `event` item with an exception and its stack trace, a
 * `session` update), with a fresh event id each time.
 */
function envelope(
  url: string,
  project: SdkProject,
  eventId: string,
  kind: string,
  shape: SdkShape,
): string {
  const now = new Date().toISOString();
  const dsn = `${url.replace('//', `//${project.publicKey}@`)}/${project.id}`;
  const release = shape.release?.() ?? 'app@1.0.0';
  const event = {
    event_id: eventId,
    timestamp: now,
    platform: shape.platform ?? 'python',
    level: 'error',
    release,
    environment: 'production',
    exception: {
      values: [
        {
          type: kind,
          value: `${kind} in the spool scenario`,
          stacktrace: { frames: framesOf(shape.platform ?? 'python') },
        },
      ],
    },
  };
  const session = {
    sid: eventId,
    status: 'errored',
    errors: 1,
    started: now,
    timestamp: now,
    attrs: { release: 'app@1.0.0', environment: 'production' },
  };
  return [
    JSON.stringify({ event_id: eventId, sent_at: now, dsn }),
    JSON.stringify({ type: 'event' }),
    JSON.stringify(event),
    JSON.stringify({ type: 'session' }),
    JSON.stringify(session),
    '',
  ].join('\n');
}

/**
 * A live SDK-shaped load on the collector: `workers` loops, each sending
 * one envelope after the other, every answer recorded with when it was sent.
 */
export class SdkLoad {
  readonly sent: SentEnvelope[] = [];

  constructor(
    private readonly project: SdkProject,
    private readonly shape: SdkShape = {},
  ) {}

  run(workers: number, target: () => string, done: () => boolean) {
    return Promise.all(
      Array.from({ length: workers }, async () => {
        while (!done()) await this.sendOne(target());
      }),
    );
  }

  async sendOne(url: string): Promise<SentEnvelope> {
    const eventId = randomBytes(16).toString('hex');
    const kind = KINDS[this.sent.length % KINDS.length] as SentEnvelope['kind'];
    const sentAt = performance.now();
    const answer = await send(
      `${url}/api/v4/error_tracking/collector/api/${this.project.id}/envelope/`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/x-sentry-envelope',
          'x-sentry-auth': `Sentry sentry_version=7, sentry_client=${CLIENTS[this.shape.platform ?? 'python']}, sentry_key=${this.project.publicKey}`,
        },
        body: envelope(url, this.project, eventId, kind, this.shape),
      },
    );
    const sent = { eventId, kind, sentAt, answer };
    this.sent.push(sent);
    return sent;
  }

  acknowledged(): SentEnvelope[] {
    return this.sent.filter((s) => s.answer.status === 200);
  }

  /**
   * What the database holds for this load: acknowledged events not stored
   * exactly once, events stored more than once, errors whose count
   * disagrees with their stored events, and kinds whose errors' counts
   * disagree with the events sent of that kind.
   */
  async verify(pg: PrivatePostgres, database: string) {
    const stored = new Map<string, number>();
    for (const row of await pg.query<{ id: string; n: string }>(
      database,
      `SELECT replace(event_id::text, '-', '') AS id, count(*) AS n
         FROM error_tracking.events WHERE project_id = $1 GROUP BY 1`,
      [this.project.id],
    ))
      stored.set(row.id, Number(row.n));
    const acknowledged = this.acknowledged();
    const lost = acknowledged
      .filter((s) => stored.get(s.eventId) !== 1)
      .map((s) => s.eventId);
    const duplicated = [...stored].filter(([, n]) => n > 1).map(([id]) => id);

    const counts = await pg.query<{ title: string; count: string }>(
      database,
      'SELECT title, count FROM error_tracking.errors WHERE project_id = $1',
      [this.project.id],
    );
    const countOf = (kind: string) =>
      counts
        .filter((row) => row.title.startsWith(kind))
        .reduce((n, row) => n + Number(row.count), 0);
    // Each error counts its stored events: every acknowledged one, plus any
    // whose answer the client missed (a timeout) but that landed anyway.
    const miscounted = KINDS.filter(
      (kind) =>
        countOf(kind) !==
        this.sent.filter((s) => s.kind === kind && stored.has(s.eventId))
          .length,
    );
    return {
      acknowledged: acknowledged.length,
      lost,
      duplicated,
      inconsistentErrors: await inconsistentErrors(
        pg,
        database,
        this.project.id,
      ),
      miscounted,
    };
  }
}
