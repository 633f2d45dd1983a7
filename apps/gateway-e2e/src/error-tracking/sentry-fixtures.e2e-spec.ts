import {
  defined,
  expectedUser,
  fixtureEvent,
  loadSentryFixtures,
} from '@quitanda/testing';
import type { SentryFixture } from '@quitanda/testing';

import {
  ROOT_TOKEN,
  registerFixtureProject,
  replayFixture,
  startErrorTrackingGateway,
} from './error-tracking-support';
import type {
  ErrorTrackingGateway,
  RawResponse,
} from './error-tracking-support';

const fixtures = loadSentryFixtures();
const withEvents = fixtures.filter((f) => f.expect.carries_event);

/** The crash frame as the SDK sent it (the last frame of the last exception). */
function crashFrame(fixture: SentryFixture): {
  function: string;
  context_line?: string;
} {
  const event = fixtureEvent(fixture);
  type Frames = { frames: Array<{ function: string; context_line?: string }> };
  const exception = event['exception'] as
    | { values?: Array<{ stacktrace?: Frames }> }
    | Array<{ stacktrace?: Frames }>;
  const values = Array.isArray(exception)
    ? exception
    : (exception.values ?? []);
  const frames = values[values.length - 1]?.stacktrace?.frames ?? [];
  return defined(frames[frames.length - 1]);
}

function expectedTitle(fixture: SentryFixture): string {
  const expected = defined(fixture.expect.events[0]);
  if (expected.exception_type && !expected.exception_synthetic)
    return `${expected.exception_type}: ${expected.exception_value}`;
  return expected.message as string;
}

/**
 * What each captured event must show, by Sentry's rules: its title, its
 * culprit (the most recent in-app frame as `get_culprit` writes it; never a
 * thread snapshot's, so Java's and Ruby's messages have none, nor a
 * synthetic exception's, so Node 11's message has none), and its stack trace (frame count
 * and most recent frame, `null` for none).
 */
const DISPLAY: Record<
  string,
  { title: string; culprit: string; frames: number; top: string | null }
> = {
  'go-0.11.0/001-exception.json': {
    title: '*errors.errorString: demo boom from sentry-go 0.11.0 (n=2)',
    culprit: 'main in outer.func1',
    frames: 5,
    top: 'outer.func1',
  },
  'go-0.11.0/002-message.json': {
    title: 'demo warning message from sentry-go 0.11.0',
    culprit: '',
    frames: 0,
    top: null,
  },
  'node-11.12.0/002-exception.json': {
    title: 'Error: demo boom from @sentry/node 11.12.0 (n=2)',
    culprit: 'innermost(client)',
    frames: 10,
    top: 'innermost',
  },
  'node-11.12.0/003-exception-large.json': {
    title: 'Error: demo boom from @sentry/node 11.12.0 (n=2)',
    culprit: 'innermost(client)',
    frames: 10,
    top: 'innermost',
  },
  'node-11.12.0/004-message.json': {
    title: 'demo warning message from @sentry/node 11.12.0',
    culprit: '',
    frames: 8,
    top: 'main',
  },
  'node-7.38.0/002-message.json': {
    title: 'demo warning message from @sentry/node 7.38.0',
    culprit: '',
    frames: 0,
    top: null,
  },
  'node-7.38.0/004-exception-large.json': {
    title: 'Error: demo boom from @sentry/node 7.38.0 (n=2)',
    culprit: 'innermost(client)',
    frames: 10,
    top: 'innermost',
  },
  'node-7.38.0/005-exception.json': {
    title: 'Error: demo boom from @sentry/node 7.38.0 (n=2)',
    culprit: 'innermost(client)',
    frames: 10,
    top: 'innermost',
  },
  'python-1.9.10/001-exception.json': {
    title: 'ValueError: demo boom from sentry-python 1.9.10 (n=2)',
    culprit: '__main__ in innermost',
    frames: 4,
    top: 'innermost',
  },
  'python-1.9.10/002-message.json': {
    title: 'demo warning message from sentry-python 1.9.10',
    culprit: '',
    frames: 0,
    top: null,
  },
  'ruby-5.3.0/001-exception.json': {
    title: 'ArgumentError: demo boom from sentry-ruby 5.3.0 (n=2)',
    culprit: 'client.rb in innermost',
    frames: 4,
    top: 'innermost',
  },
  'ruby-5.3.0/002-exception-large.json': {
    title: 'ArgumentError: demo boom from sentry-ruby 5.3.0 (n=2)',
    culprit: 'client.rb in innermost',
    frames: 4,
    top: 'innermost',
  },
  'ruby-5.3.0/003-message.json': {
    title: 'demo warning message from sentry-ruby 5.3.0',
    culprit: '',
    frames: 3,
    top: 'capture_message',
  },
  'go-0.20.0/001-exception.json': {
    title: '*errors.errorString: demo boom from sentry-go 0.20.0 (n=2)',
    culprit: 'main in outer.func1',
    frames: 5,
    top: 'outer.func1',
  },
  'go-0.20.0/002-message.json': {
    title: 'demo warning message from sentry-go 0.20.0',
    culprit: '',
    frames: 0,
    top: null,
  },
  'java-6.18.1/001-exception.json': {
    title: 'IllegalArgumentException: demo boom from sentry-java 6.18.1 (n=2)',
    culprit: 'app.Main in innermost',
    frames: 4,
    top: 'innermost',
  },
  'java-6.18.1/002-message.json': {
    title: 'demo warning message from sentry-java 6.18.1',
    culprit: '',
    frames: 2,
    top: 'getStackTrace',
  },
  'python-1.21.0/001-exception.json': {
    title: 'ValueError: demo boom from sentry-python 1.21.0 (n=2)',
    culprit: '__main__ in innermost',
    frames: 4,
    top: 'innermost',
  },
  'python-1.21.0/002-message.json': {
    title: 'demo warning message from sentry-python 1.21.0',
    culprit: '',
    frames: 0,
    top: null,
  },
  'python-1.21.0/006-exception.json': {
    title: 'ValueError: demo boom from sentry-python 1.21.0 (n=2)',
    culprit: '__main__ in innermost',
    frames: 4,
    top: 'innermost',
  },
  'python-1.21.0/007-message.json': {
    title: 'demo warning message from sentry-python 1.21.0',
    culprit: '',
    frames: 0,
    top: null,
  },
  'ruby-5.9.0/001-exception.json': {
    title: 'ArgumentError: demo boom from sentry-ruby 5.9.0 (n=2)',
    culprit: 'client.rb in innermost',
    frames: 4,
    top: 'innermost',
  },
  'ruby-5.9.0/002-exception-large.json': {
    title: 'ArgumentError: demo boom from sentry-ruby 5.9.0 (n=2)',
    culprit: 'client.rb in innermost',
    frames: 4,
    top: 'innermost',
  },
  'ruby-5.9.0/003-message.json': {
    title: 'demo warning message from sentry-ruby 5.9.0',
    culprit: '',
    frames: 3,
    top: 'capture_message',
  },
  'php-3.18.0/001-exception.json': {
    title: 'InvalidArgumentException: demo boom from sentry-php 3.18.0 (n=2)',
    culprit: '/client.php in innermost',
    frames: 4,
    top: 'innermost',
  },
  'php-3.18.0/002-message.json': {
    title: 'demo warning message from sentry-php 3.18.0',
    culprit: '',
    frames: 0,
    top: null,
  },
  'rust-0.31.0/001-exception+session.json': {
    title: 'panic: demo boom from sentry-rust 0.31.0 (n=2)',
    culprit: 'sentry_rust_client::innermost',
    frames: 27,
    top: 'sentry_rust_client::innermost',
  },
  'rust-0.31.0/002-message.json': {
    title: 'demo warning message from sentry-rust 0.31.0',
    culprit: '',
    frames: 0,
    top: null,
  },
};

describe('Sentry SDK fixtures replayed byte for byte (e2e)', () => {
  let gw: ErrorTrackingGateway;
  const auth = { 'PRIVATE-TOKEN': ROOT_TOKEN };
  /** Both replies to each fixture: every capture is replayed twice. */
  const replies = new Map<string, RawResponse[]>();

  beforeAll(async () => {
    gw = await startErrorTrackingGateway();
    await registerFixtureProject(gw);
    for (let round = 0; round < 2; round++)
      for (const fixture of fixtures) {
        const response = await replayFixture(gw.url, fixture);
        replies.set(fixture.file, [
          ...(replies.get(fixture.file) ?? []),
          response,
        ]);
      }
  });

  afterAll(() => gw?.close());

  /** The fixtures whose events an error groups. */
  async function groupedFixtures(errorId: string): Promise<SentryFixture[]> {
    const grouped = await gw.query<{ event_id: string }>(
      'SELECT event_id::text FROM error_tracking.events WHERE project_id = 4242 AND error_id = $1',
      [errorId],
    );
    const ids = new Set(grouped.map((r) => r.event_id.replace(/-/g, '')));
    return withEvents.filter((f) =>
      ids.has(defined(f.expect.events[0]).event_id.replace(/-/g, '')),
    );
  }

  it.each(fixtures.map((f) => [f.file, f] as const))(
    '%s answers 200 with the event id, CORS, and JSON (also when replayed)',
    (_file, fixture) => {
      const responses = replies.get(fixture.file) ?? [];
      expect(responses).toHaveLength(2);
      for (const response of responses) {
        expect(response.status).toBe(200);
        expect(response.headers['access-control-allow-origin']).toBe('*');
        expect(response.json()).toEqual(
          fixture.expect.carries_event
            ? { id: defined(fixture.expect.events[0]).event_id }
            : {},
        );
      }
    },
  );

  it.each(withEvents.map((f) => [f.file, f] as const))(
    '%s lands once with its title, level, release, environment, user, tags and stack trace',
    async (_file, fixture) => {
      const expected = defined(fixture.expect.events[0]);
      const [row] = await gw.query<{ error_id: string; n: number }>(
        `SELECT error_id::text, count(*) OVER ()::int AS n FROM error_tracking.events
          WHERE project_id = 4242 AND event_id = $1`,
        [expected.event_id],
      );
      expect(row?.n).toBe(1);
      const errorId = defined(row).error_id;

      const detail = await gw.http
        .get(`/api/v4/projects/4242/error_tracking/errors/${errorId}`)
        .set(auth)
        .expect(200);
      if (expected.exception_type && !expected.exception_synthetic) {
        // The same crash sent by two versions of one SDK is one error, as in
        // Sentry: its title is that of one of the events it groups.
        const titles = (await groupedFixtures(errorId)).map(expectedTitle);
        expect(titles).toContain(expectedTitle(fixture));
        expect(titles).toContain(detail.body.title);
      }
      expect(detail.body.count).toBeGreaterThanOrEqual(1);

      const event = await gw.http
        .get(
          `/api/v4/projects/4242/error_tracking/errors/${errorId}/events/${expected.event_id}`,
        )
        .set(auth)
        .expect(200);
      expect(event.body).toMatchObject({
        event_id: expected.event_id,
        title: expectedTitle(fixture),
        level: expected.level ?? 'error',
        release: expected.release,
        environment: expected.environment,
        user: expectedUser(expected),
        tags: expected.tags,
        platform: expected.platform,
      });
      const sent =
        typeof expected.timestamp === 'number'
          ? expected.timestamp * 1000
          : Date.parse(expected.timestamp);
      expect(Date.parse(event.body.timestamp)).toBe(Math.round(sent));

      if (expected.exception_type && !expected.exception_synthetic) {
        const trace = await gw.http
          .get(
            `/api/v4/projects/4242/error_tracking/errors/${errorId}/stack_trace`,
          )
          .set(auth)
          .expect(200);
        const entries = trace.body.error.stack_trace_entries;
        expect(entries).toHaveLength(expected.frame_count);
        // Stored oldest first: the crash frame is last.
        const sentCrash = crashFrame(fixture);
        expect(entries[entries.length - 1].function).toBe(sentCrash.function);
        // Source lines are shown where the SDK sent them (not Java's, nor a
        // release build's native frames).
        if (sentCrash.context_line !== undefined)
          expect(entries[entries.length - 1].context.length).toBeGreaterThan(0);
        else expect(entries[entries.length - 1].context).toEqual([]);
      }
    },
  );

  it('has what each captured event must show for every fixture with an event', () => {
    expect(Object.keys(DISPLAY).sort()).toEqual(
      withEvents.map((f) => f.file).sort(),
    );
  });

  it.each(withEvents.map((f) => [f.file, f] as const))(
    '%s shows its title, culprit and stack trace as Sentry does',
    async (_file, fixture) => {
      const display = defined(DISPLAY[fixture.file]);
      const eventId = defined(fixture.expect.events[0]).event_id;
      const [row] = await gw.query<{ error_id: string }>(
        `SELECT error_id::text FROM error_tracking.events
          WHERE project_id = 4242 AND event_id = $1`,
        [eventId],
      );
      const errorId = defined(row).error_id;
      const base = `/api/v4/projects/4242/error_tracking/errors/${errorId}`;
      const event = await gw.http
        .get(`${base}/events/${eventId}`)
        .set(auth)
        .expect(200);
      expect([event.body.title, event.body.culprit]).toEqual([
        display.title,
        display.culprit,
      ]);
      // The error shows what its latest event shows: one of the captures
      // it groups (two SDK versions of one crash are one error).
      const shown = (await groupedFixtures(errorId)).map((f) => {
        const d = defined(DISPLAY[f.file]);
        return [d.title, d.culprit];
      });
      const detail = await gw.http.get(base).set(auth).expect(200);
      expect(shown).toContainEqual([detail.body.title, detail.body.culprit]);
      if (shown.every(([, c]) => c === display.culprit)) {
        const trace = await gw.http
          .get(`${base}/stack_trace`)
          .set(auth)
          .expect(200);
        const entries: Array<{ function: string }> =
          trace.body.error.stack_trace_entries;
        expect(entries).toHaveLength(display.frames);
        expect(entries[entries.length - 1]?.function ?? null).toBe(display.top);
      }
    },
  );

  it('puts the crash frame first in the description of an issue made from an error', async () => {
    const fixture = defined(
      fixtures.find((f) => f.file === 'node-11.12.0/002-exception.json'),
    );
    const [row] = await gw.query<{ error_id: string }>(
      'SELECT error_id::text FROM error_tracking.events WHERE event_id = $1',
      [defined(fixture.expect.events[0]).event_id],
    );
    const issue = await gw.http
      .post(
        `/api/v4/projects/4242/error_tracking/errors/${defined(row).error_id}/issue`,
      )
      .set(auth)
      .expect(201);
    const trace = issue.body.description.split('### Stack trace')[1] as string;
    const firstFrame = trace
      .split('\n')
      .find((line: string) => /\(.+\)$/.test(line));
    expect(firstFrame).toMatch(/^innermost \(.+client\.js:\d+\)$/);
  });

  it('counts sessions (once per session id) and aggregates into release health', async () => {
    const health = await gw.http
      .get('/api/v4/projects/4242/error_tracking/release_health')
      .set(auth)
      .expect(200);
    // Every release-health item, including those riding with an event.
    const items = fixtures.flatMap((f) => f.expect.sessions);
    const distinctSids = new Set(
      items
        .filter((item) => item.type === 'session')
        .map((item) =>
          String(item.payload['sid']).replace(/-/g, '').toLowerCase(),
        ),
    );
    const aggregated = items
      .filter((item) => item.type === 'sessions')
      .flatMap(
        (item) => item.payload['aggregates'] as Array<Record<string, number>>,
      )
      .reduce(
        (n: number, a: Record<string, number>) =>
          n +
          (a['exited'] ?? 0) +
          (a['errored'] ?? 0) +
          (a['crashed'] ?? 0) +
          (a['abnormal'] ?? 0),
        0,
      );
    const total = health.body.reduce(
      (n: number, r: { sessions: number }) => n + r.sessions,
      0,
    );
    // Session updates count once per sid; aggregates have no id: twice.
    expect(total).toBe(distinctSids.size + 2 * aggregated);
    expect(
      health.body.every((r: { release: string }) => r.release === '1.2.3'),
    ).toBe(true);
  });

  it('counts client reports as discarded events', async () => {
    const rows = await gw.query<{
      reason: string;
      category: string;
      quantity: string;
    }>(
      `SELECT reason, category, quantity::text FROM error_tracking.discarded_events
        WHERE project_id = 4242 AND source = 'client'`,
    );
    const reports = fixtures.filter((f) => f.kind === 'client_report').length;
    // Each fixture reports one before_send drop and is replayed twice.
    expect(rows).toEqual([
      {
        reason: 'before_send',
        category: 'error',
        quantity: String(reports * 2),
      },
    ]);
  });
});
