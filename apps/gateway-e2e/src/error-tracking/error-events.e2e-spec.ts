import {
  ROOT_TOKEN,
  createTrackedProject,
  createUser,
  startErrorTrackingGateway,
  storeEvent,
} from './error-tracking-support';
import type { ErrorTrackingGateway } from './error-tracking-support';

const root = { 'PRIVATE-TOKEN': ROOT_TOKEN };
const PUBLIC_BASE_URL = 'https://errors.example.com/base';
const MINUTE_MS = 60_000;

/** Event ids `…0001`, `…0002`, ... (the 32 hex digits SDKs send). */
function eventId(n: number): string {
  return n.toString(16).padStart(32, '0');
}

describe("an error's events: list, one event, navigation (e2e)", () => {
  let gw: ErrorTrackingGateway;
  let project: { id: number; publicKey: string };
  let errorId = '';
  const base = () => `/api/v4/projects/${project.id}/error_tracking`;
  // Five occurrences a minute apart, sent out of time order; two mention
  // "checkout" in their transaction, the others "search".
  const sent = [3, 1, 5, 2, 4];
  const at = (n: number) =>
    new Date(Date.now() - (10 - n) * MINUTE_MS).getTime() / 1000;

  beforeAll(async () => {
    gw = await startErrorTrackingGateway({ PUBLIC_BASE_URL });
    project = await createTrackedProject(gw);
    for (const n of sent) {
      const res = await storeEvent(gw, project.id, project.publicKey, {
        event_id: eventId(n),
        timestamp: at(n),
        platform: 'node',
        fingerprint: ['events-e2e'],
        transaction: n % 2 === 0 ? `POST /checkout/${n}` : `GET /search/${n}`,
        exception: {
          values: [{ type: 'Error', value: `boom ${n}` }],
        },
      });
      expect(res.status).toBe(200);
    }
    const [row] = await gw.query<{ id: string }>(
      'SELECT id::text AS id FROM error_tracking.errors WHERE project_id = $1',
      [project.id],
    );
    errorId = row?.id ?? '';
  });

  afterAll(() => gw?.close());

  /** Follows `Link: rel="next"` from `path` to the end; every page's ids. */
  async function allPages(path: string): Promise<string[][]> {
    const pages: string[][] = [];
    let next: string | undefined = path;
    while (next) {
      const res: {
        body: Array<{ event_id: string }>;
        headers: Record<string, unknown>;
      } = await gw.http.get(next).set(root).expect(200);
      pages.push(res.body.map((e) => e.event_id));
      const link: string | undefined = /<([^>]+)>; rel="next"/.exec(
        (res.headers['link'] as string | undefined) ?? '',
      )?.[1];
      next = link?.replace(PUBLIC_BASE_URL, '');
    }
    return pages;
  }

  it('pages the events newest first by their time, two at a time', async () => {
    const pages = await allPages(
      `${base()}/errors/${errorId}/events?per_page=2`,
    );
    expect(pages).toEqual([
      [eventId(5), eventId(4)],
      [eventId(3), eventId(2)],
      [eventId(1)],
    ]);
  });

  it('filters the list by a free-text search, still newest first and paged', async () => {
    const pages = await allPages(
      `${base()}/errors/${errorId}/events?per_page=1&search=checkout`,
    );
    expect(pages).toEqual([[eventId(4)], [eventId(2)]]);
    const none = await gw.http
      .get(
        `${base()}/errors/${errorId}/events?search=${encodeURIComponent('100%_')}`,
      )
      .set(root)
      .expect(200);
    expect(none.body).toEqual([]);
    expect(none.headers['link']).toBeUndefined();
  });

  it('refuses a bad cursor or an over-long search with 400 in GitLab form', async () => {
    await gw.http
      .get(`${base()}/errors/${errorId}/events?cursor=nope`)
      .set(root)
      .expect(400, { error: 'cursor is invalid' });
    const res = await gw.http
      .get(`${base()}/errors/${errorId}/events?search=${'x'.repeat(1001)}`)
      .set(root)
      .expect(400);
    expect(JSON.stringify(res.body)).toContain('search');
  });

  it('answers one event by id, and the latest and oldest by name', async () => {
    const one = await gw.http
      .get(`${base()}/errors/${errorId}/events/${eventId(3)}`)
      .set(root)
      .expect(200);
    expect(one.body).toMatchObject({
      event_id: eventId(3),
      transaction: 'GET /search/3',
    });
    const latest = await gw.http
      .get(`${base()}/errors/${errorId}/events/latest`)
      .set(root)
      .expect(200);
    expect(latest.body.event_id).toBe(eventId(5));
    const oldest = await gw.http
      .get(`${base()}/errors/${errorId}/events/oldest`)
      .set(root)
      .expect(200);
    expect(oldest.body.event_id).toBe(eventId(1));
    await gw.http
      .get(`${base()}/errors/${errorId}/events/${'f'.repeat(32)}`)
      .set(root)
      .expect(404, { message: '404 Event Not Found' });
    await gw.http
      .get(`${base()}/errors/${errorId}/events/newest`)
      .set(root)
      .expect(404, { message: '404 Event Not Found' });
  });

  it('steps from an event to the oldest, older, newer and latest ones', async () => {
    const middle = await gw.http
      .get(`${base()}/errors/${errorId}/events/${eventId(3)}/navigation`)
      .set(root)
      .expect(200);
    expect(middle.body).toEqual({
      event_id: eventId(3),
      oldest_event_id: eventId(1),
      older_event_id: eventId(2),
      newer_event_id: eventId(4),
      latest_event_id: eventId(5),
    });
    const first = await gw.http
      .get(`${base()}/errors/${errorId}/events/oldest/navigation`)
      .set(root)
      .expect(200);
    expect(first.body).toMatchObject({
      event_id: eventId(1),
      older_event_id: null,
      newer_event_id: eventId(2),
    });
    const last = await gw.http
      .get(`${base()}/errors/${errorId}/events/latest/navigation`)
      .set(root)
      .expect(200);
    expect(last.body).toMatchObject({
      event_id: eventId(5),
      older_event_id: eventId(4),
      newer_event_id: null,
    });
  });

  it("hides a project's events from a non-member (404)", async () => {
    const stranger = await createUser(gw);
    for (const path of [
      `${base()}/errors/${errorId}/events`,
      `${base()}/errors/${errorId}/events/${eventId(3)}`,
      `${base()}/errors/${errorId}/events/${eventId(3)}/navigation`,
    ])
      await gw.http
        .get(path)
        .set('PRIVATE-TOKEN', stranger.token)
        .expect(404, { message: '404 Project Not Found' });
  });
});
