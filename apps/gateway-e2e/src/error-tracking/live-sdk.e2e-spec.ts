import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { defined } from '@quitanda/testing';

import {
  ROOT_TOKEN,
  createTrackedProject,
  startErrorTrackingGateway,
} from './error-tracking-support';
import type { ErrorTrackingGateway } from './error-tracking-support';

const run = promisify(execFile);
const root = { 'PRIVATE-TOKEN': ROOT_TOKEN };

describe('@sentry/node reporting live to a DSN from the API (e2e)', () => {
  let gw: ErrorTrackingGateway;
  let project: { id: number; dsn: string };
  let started: number;
  let finished: number;

  beforeAll(async () => {
    gw = await startErrorTrackingGateway();
    project = await createTrackedProject(gw);
    started = Date.now();
    const { stdout } = await run(
      process.execPath,
      [join(__dirname, 'live-sdk-client.js')],
      {
        env: { ...process.env, SENTRY_DSN: project.dsn, NODE_OPTIONS: '' },
        timeout: 60_000,
      },
    );
    expect(JSON.parse(stdout)).toEqual({ flushed: true });
    finished = Date.now();
  }, 90_000);

  afterAll(() => gw?.close());

  it('groups the three reports into one error with counts, users, first/last seen, frequency and stack trace', async () => {
    const base = `/api/v4/projects/${project.id}/error_tracking`;
    const list = await gw.http.get(`${base}/errors`).set(root).expect(200);
    const error = defined(
      list.body.find((e: { type: string }) => e.type === 'TypeError'),
      'the TypeError',
    );
    expect(error).toMatchObject({
      title: expect.stringMatching(/^TypeError: live boom \d$/),
      count: 3,
      user_count: 2,
      status: 'unresolved',
      level: 'error',
      platform: 'node',
    });
    const firstSeen = Date.parse(error.first_seen);
    const lastSeen = Date.parse(error.last_seen);
    expect(firstSeen).toBeGreaterThanOrEqual(started - 1000);
    expect(lastSeen).toBeGreaterThanOrEqual(firstSeen);
    expect(lastSeen).toBeLessThanOrEqual(finished + 1000);

    // Frequency: the current hour holds the three reports (keyed by hour start).
    const hourStart = Math.floor(lastSeen / 3_600_000) * 3600;
    const bucket = error.frequency.find(
      ([t]: [number, number]) => t === hourStart,
    );
    expect(bucket).toEqual([hourStart, 3]);
    expect(
      error.frequency.reduce((n: number, [, c]: [number, number]) => n + c, 0),
    ).toBe(3);

    const detail = await gw.http
      .get(`${base}/errors/${error.id}`)
      .set(root)
      .expect(200);
    expect(detail.body).toMatchObject({
      first_release_version: 'live-1.0.0',
      last_release_version: 'live-1.0.0',
    });

    const trace = await gw.http
      .get(`${base}/errors/${error.id}/stack_trace`)
      .set(root)
      .expect(200);
    const entries = trace.body.error.stack_trace_entries;
    const crash = entries[entries.length - 1];
    expect(crash).toMatchObject({
      function: 'failing',
      filename: expect.stringMatching(/live-sdk-client\.js$/),
    });
    expect(crash.context).toEqual(
      expect.arrayContaining([
        [crash.lineNo, expect.stringContaining('throw new TypeError')],
      ]),
    );
    expect(entries[entries.length - 2].function).toBe('run');

    const events = await gw.http
      .get(`${base}/errors/${error.id}/events`)
      .set(root)
      .expect(200);
    expect(events.body).toHaveLength(3);
    expect(
      new Set(events.body.map((e: { user: { id: string } }) => e.user.id)),
    ).toEqual(new Set(['user-a', 'user-b']));
    expect(
      events.body.every(
        (e: { environment: string }) => e.environment === 'e2e',
      ),
    ).toBe(true);
  });

  it('stores the message as its own error, titled by the message', async () => {
    const list = await gw.http
      .get(
        `/api/v4/projects/${project.id}/error_tracking/errors?search=live message`,
      )
      .set(root)
      .expect(200);
    expect(list.body).toEqual([
      expect.objectContaining({
        title: 'live message from the sdk',
        level: 'warning',
        count: 1,
      }),
    ]);
  });
});
