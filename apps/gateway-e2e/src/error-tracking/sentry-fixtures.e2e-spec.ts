import { defined, expectedUser, loadSentryFixtures } from '@quitanda/testing';
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

/** The event as the SDK sent it (decoded body text, placeholders aside). */
function sentEvent(fixture: SentryFixture): Record<string, unknown> {
  const text = fixture.body.text;
  if (fixture.endpoint === 'store') return JSON.parse(text);
  return JSON.parse(text.split('\n')[2] as string);
}

/** The crash frame as the SDK sent it (the last frame of the last exception). */
function crashFrame(fixture: SentryFixture): {
  function: string;
  context_line?: string;
} {
  const event = sentEvent(fixture);
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
        const grouped = await gw.query<{ event_id: string }>(
          'SELECT event_id FROM error_tracking.events WHERE project_id = 4242 AND error_id = $1',
          [errorId],
        );
        const ids = new Set(grouped.map((r) => r.event_id.replace(/-/g, '')));
        const titles = withEvents
          .filter((f) =>
            ids.has(defined(f.expect.events[0]).event_id.replace(/-/g, '')),
          )
          .map(expectedTitle);
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
