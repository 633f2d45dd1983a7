import { CLOCK, FixedClock, encodeCursor } from '@quitanda/kernel';
import { newTestService } from '@quitanda/testing';

import { callerOf, errorRecord, projectAccess } from '../../testing/records';
import { ErrorTrackingErrorCode } from '../common/error-tracking.errors';
import { IssueFollowsError } from '../issues/issue-follows-error';
import type { IssueRecord } from '../issues/issue.types';
import { IssuesRepository } from '../issues/issues.repository';
import { ErrorTrackingDatabase } from '../persistence/error-tracking.database';
import type { Transaction } from '../persistence/error-tracking.database';
import type { ErrorListOptions } from './errors.service';
import { ErrorsService } from './errors.service';
import type { EventSummary, StoredEvent } from './error.types';
import { ErrorsRepository } from './errors.repository';
import { EVENT_SEARCH_SCAN_MAX } from './event-search';

const NOW = new Date('2026-06-01T10:30:00.000Z');
/** The oldest of the 24 hourly buckets at NOW: 23 hours before 10:00. */
const FIRST_HOUR = new Date('2026-05-31T11:00:00.000Z');
const HOUR_S = 3_600;
const EVENT_ID = 'b'.repeat(32);
const STORED: StoredEvent = {
  payload: {
    exception: {
      values: [
        {
          type: 'TypeError',
          value: 'x is undefined',
          stacktrace: {
            frames: [
              { function: 'boot', filename: 'boot.js', lineno: 1 },
              { function: 'main', filename: 'app.js', lineno: 2, in_app: true },
            ],
          },
        },
      ],
    },
  },
  receivedAt: new Date('2026-06-01T09:00:00.000Z'),
  timestamp: new Date('2026-06-01T08:59:00.000Z'),
};

function issue(iid: number): IssueRecord {
  return {
    id: 100 + iid,
    iid,
    projectId: 3,
    title: 't',
    description: '',
    state: 'opened',
    labels: [],
    createdAt: NOW,
    updatedAt: NOW,
    closedAt: null,
  };
}

function summary(timestamp: string, eventId: string): EventSummary {
  return {
    eventId,
    timestamp: new Date(timestamp),
    receivedAt: new Date(timestamp),
    level: 'error',
    title: 't',
    message: 'm',
    release: null,
    environment: 'production',
    platform: null,
    user: null,
    tags: null,
    sdk: null,
  };
}

describe('ErrorsService', () => {
  let service: ErrorsService;
  let errors: jest.Mocked<ErrorsRepository>;
  let issues: jest.Mocked<IssuesRepository>;
  let follows: jest.Mocked<IssueFollowsError>;
  const tx = {} as Transaction;
  const access = projectAccess();

  beforeEach(async () => {
    const built = await newTestService(ErrorsService, [
      { provide: CLOCK, useValue: new FixedClock(NOW) },
    ]);
    service = built.sut;
    errors = built.mock(ErrorsRepository);
    issues = built.mock(IssuesRepository);
    follows = built.mock(IssueFollowsError);
    built
      .mock(ErrorTrackingDatabase)
      .transaction.mockImplementation((work) => work(tx));
  });

  describe('list', () => {
    const options: ErrorListOptions = {
      status: 'unresolved',
      sort: 'last_seen',
      limit: 2,
    };

    it('asks for one row more than the page, from the first of 24 hours, empty filters as none', async () => {
      errors.list.mockResolvedValue([]);
      await expect(
        service.list(access, {
          ...options,
          search: '',
          environment: 'production',
          release: '',
        }),
      ).resolves.toEqual({ items: [], nextCursor: undefined });
      expect(errors.list).toHaveBeenCalledWith(
        {
          projectId: 3,
          status: 'unresolved',
          sort: 'last_seen',
          search: undefined,
          environment: 'production',
          release: undefined,
          terms: [],
          after: undefined,
          limit: 3,
        },
        FIRST_HOUR,
      );
    });

    it('passes the query and level as search terms; an is: term replaces the default status', async () => {
      errors.list.mockResolvedValue([]);
      await service.list(access, {
        sort: 'last_seen',
        limit: 2,
        defaultStatus: 'unresolved',
        query: 'is:resolved browser.name:Chrome',
        level: 'fatal',
      });
      expect(errors.list).toHaveBeenCalledWith(
        expect.objectContaining({
          status: undefined,
          terms: [
            { kind: 'status', status: 'resolved', negated: false },
            {
              kind: 'tag',
              key: 'browser.name',
              value: 'Chrome',
              negated: false,
            },
            { kind: 'tag', key: 'level', value: 'fatal', negated: false },
          ],
        }),
        FIRST_HOUR,
      );
      await service.list(access, {
        sort: 'last_seen',
        limit: 2,
        defaultStatus: 'unresolved',
        query: 'browser.name:Chrome',
      });
      expect(errors.list).toHaveBeenLastCalledWith(
        expect.objectContaining({ status: 'unresolved' }),
        FIRST_HOUR,
      );
    });

    it('fills the 24 hourly buckets, oldest first, with the counts read', async () => {
      const first = FIRST_HOUR.getTime() / 1000;
      const current = first + 23 * HOUR_S;
      errors.list.mockResolvedValue([
        {
          error: errorRecord(),
          hours: [
            [first, 4],
            [current, 9],
          ],
        },
      ]);
      const { items } = await service.list(access, options);
      const frequency = items[0]?.frequency ?? [];
      expect(frequency).toHaveLength(24);
      expect(frequency[0]).toEqual([first, 4]);
      expect(frequency[1]).toEqual([first + HOUR_S, 0]);
      expect(frequency[23]).toEqual([current, 9]);
    });

    it('hands out a cursor after the last error of a full page, which the next call reads back', async () => {
      const rows = ['3', '2', '1'].map((id) => ({
        error: errorRecord({
          id,
          lastSeen: new Date(`2026-05-0${id}T00:00:00.000Z`),
        }),
        hours: [],
      }));
      errors.list.mockResolvedValue(rows);
      const page = await service.list(access, options);
      expect(page.items.map((i) => i.error.id)).toEqual(['3', '2']);
      expect(page.nextCursor).toBe(
        encodeCursor(['last_seen', '2026-05-02T00:00:00.000Z', '2']),
      );

      errors.list.mockResolvedValue(rows.slice(2));
      const next = await service.list(access, {
        ...options,
        cursor: page.nextCursor,
      });
      expect(next.nextCursor).toBeUndefined();
      expect(errors.list).toHaveBeenLastCalledWith(
        expect.objectContaining({
          after: { value: '2026-05-02T00:00:00.000Z', id: '2' },
        }),
        FIRST_HOUR,
      );
    });

    it('puts the count in the cursor of a list by frequency', async () => {
      errors.list.mockResolvedValue(
        [30, 20].map((count, i) => ({
          error: errorRecord({ id: String(i + 1), count }),
          hours: [],
        })),
      );
      const page = await service.list(access, {
        ...options,
        sort: 'frequency',
        limit: 1,
      });
      expect(page.nextCursor).toBe(encodeCursor(['frequency', '30', '1']));
    });

    it.each([
      ['a string that is no cursor', 'nope'],
      [
        'a cursor of another sort',
        encodeCursor(['first_seen', '2026-05-02', '2']),
      ],
      [
        'a cursor whose value is no date',
        encodeCursor(['last_seen', 'x', '2']),
      ],
      [
        'a cursor with a non-numeric id',
        encodeCursor(['last_seen', '2026-05-02', 'x']),
      ],
      [
        'a cursor with too few parts',
        encodeCursor(['last_seen', '2026-05-02']),
      ],
    ])('refuses %s as an invalid parameter', async (_, cursor) => {
      await expect(
        service.list(access, { ...options, cursor }),
      ).rejects.toMatchObject({
        code: ErrorTrackingErrorCode.InvalidParameter,
        message: 'cursor is invalid',
      });
      expect(errors.list).not.toHaveBeenCalled();
    });

    it('refuses a frequency cursor whose count is not a number', async () => {
      await expect(
        service.list(access, {
          ...options,
          sort: 'frequency',
          cursor: encodeCursor(['frequency', '2026-05-02', '2']),
        }),
      ).rejects.toMatchObject({
        code: ErrorTrackingErrorCode.InvalidParameter,
      });
    });
  });

  it('reads one error with its 24 hourly buckets, and answers Error Not Found for none', async () => {
    const error = errorRecord();
    errors.findWithHours.mockResolvedValueOnce({ error, hours: [] });
    const found = await service.get(access, '42');
    expect(found.error).toBe(error);
    expect(found.frequency).toHaveLength(24);
    expect(errors.findWithHours).toHaveBeenCalledWith(3, '42', FIRST_HOUR);

    errors.findWithHours.mockResolvedValueOnce(undefined);
    await expect(service.get(access, '42')).rejects.toMatchObject({
      code: ErrorTrackingErrorCode.NotFound,
      message: '404 Error Not Found',
    });
  });

  it('asks for at most 100 environments of the project', async () => {
    errors.environments.mockResolvedValue(['production']);
    await expect(service.environments(access)).resolves.toEqual(['production']);
    expect(errors.environments).toHaveBeenCalledWith(3, 100);
  });

  describe('stackTrace', () => {
    it("shows the latest event's frames, crash frame last", async () => {
      const error = errorRecord({ lastEventId: EVENT_ID });
      errors.find.mockResolvedValue(error);
      errors.findEvent.mockResolvedValue(STORED);
      const trace = await service.stackTrace(access, '42');
      expect(trace.errorId).toBe('42');
      expect(trace.dateReceived).toBe(STORED.receivedAt);
      expect(trace.entries.map((e) => e.function)).toEqual(['boot', 'main']);
      expect(errors.findEvent).toHaveBeenCalledWith(3, '42', EVENT_ID);
    });

    it('is empty when the latest event is gone, and 404 for an unknown error', async () => {
      errors.find.mockResolvedValueOnce(errorRecord());
      errors.findEvent.mockResolvedValueOnce(undefined);
      await expect(service.stackTrace(access, '42')).resolves.toEqual({
        errorId: '42',
        dateReceived: null,
        entries: [],
      });
      errors.find.mockResolvedValueOnce(undefined);
      await expect(service.stackTrace(access, '43')).rejects.toMatchObject({
        message: '404 Error Not Found',
      });
    });
  });

  describe('events', () => {
    beforeEach(() => errors.find.mockResolvedValue(errorRecord()));

    it('pages newest first with a cursor of the last event, which the next call reads back', async () => {
      const rows = [
        summary('2026-06-01T09:00:00.000Z', 'c'.repeat(32)),
        summary('2026-06-01T08:00:00.000Z', EVENT_ID),
        summary('2026-06-01T07:00:00.000Z', 'a'.repeat(32)),
      ];
      errors.listEvents.mockResolvedValue(rows);
      const page = await service.events(access, '42', 2);
      expect(page.items).toEqual(rows.slice(0, 2));
      expect(page.nextCursor).toBe(
        encodeCursor(['2026-06-01T08:00:00.000Z', EVENT_ID]),
      );
      expect(errors.listEvents).toHaveBeenCalledWith('42', 3, undefined);

      errors.listEvents.mockResolvedValue(rows.slice(2));
      const next = await service.events(access, '42', 2, page.nextCursor);
      expect(next.nextCursor).toBeUndefined();
      expect(errors.listEvents).toHaveBeenLastCalledWith('42', 3, {
        timestamp: new Date('2026-06-01T08:00:00.000Z'),
        eventId: EVENT_ID,
      });
    });

    it('searches with a query and a free-text search as one set of terms', async () => {
      errors.searchEvents.mockResolvedValue({ hits: [] });
      await service.events(access, '42', 2, undefined, {
        query: 'browser.name:Chrome',
        search: 'boom',
      });
      expect(errors.searchEvents).toHaveBeenCalledWith(
        '42',
        expect.objectContaining({
          terms: [
            {
              kind: 'tag',
              key: 'browser.name',
              value: 'Chrome',
              negated: false,
            },
            { kind: 'text', text: 'boom' },
          ],
        }),
      );
      expect(errors.listEvents).not.toHaveBeenCalled();
    });

    it.each([
      ['a string that is no cursor', 'nope'],
      ['a cursor with no date', encodeCursor(['x', EVENT_ID])],
      [
        'a cursor with a bad event id',
        encodeCursor(['2026-06-01', 'B'.repeat(32)]),
      ],
    ])('refuses %s', async (_, cursor) => {
      await expect(
        service.events(access, '42', 2, cursor),
      ).rejects.toMatchObject({
        code: ErrorTrackingErrorCode.InvalidParameter,
        message: 'cursor is invalid',
      });
      expect(errors.listEvents).not.toHaveBeenCalled();
    });

    it('with a search, reads a bounded stretch and pages on from the last match', async () => {
      const hits = [
        summary('2026-06-01T09:00:00.000Z', 'c'.repeat(32)),
        summary('2026-06-01T08:00:00.000Z', EVENT_ID),
        summary('2026-06-01T07:00:00.000Z', 'a'.repeat(32)),
      ];
      errors.searchEvents.mockResolvedValue({ hits });
      const page = await service.events(access, '42', 2, undefined, {
        search: 'boom',
      });
      expect(page.items).toEqual(hits.slice(0, 2));
      expect(page.nextCursor).toBe(
        encodeCursor(['2026-06-01T08:00:00.000Z', EVENT_ID]),
      );
      expect(errors.searchEvents).toHaveBeenCalledWith('42', {
        terms: [{ kind: 'text', text: 'boom' }],
        limit: 3,
        scanMax: EVENT_SEARCH_SCAN_MAX,
        after: undefined,
      });
      expect(errors.listEvents).not.toHaveBeenCalled();
    });

    it('with a search, goes on after the last event read when a stretch held too few matches', async () => {
      const edge = {
        timestamp: new Date('2026-05-30T00:00:00.000Z'),
        eventId: 'd'.repeat(32),
      };
      errors.searchEvents.mockResolvedValue({ hits: [], scanEdge: edge });
      const short = await service.events(access, '42', 2, undefined, {
        search: 'boom',
      });
      expect(short.items).toEqual([]);
      expect(short.nextCursor).toBe(
        encodeCursor(['2026-05-30T00:00:00.000Z', 'd'.repeat(32)]),
      );
      errors.searchEvents.mockResolvedValue({ hits: [] });
      const last = await service.events(access, '42', 2, short.nextCursor, {
        search: 'boom',
      });
      expect(last).toEqual({ items: [], nextCursor: undefined });
      expect(errors.searchEvents).toHaveBeenLastCalledWith(
        '42',
        expect.objectContaining({ after: edge }),
      );
    });

    it('answers Error Not Found for an unknown error', async () => {
      errors.find.mockResolvedValue(undefined);
      await expect(service.events(access, '42', 2)).rejects.toMatchObject({
        message: '404 Error Not Found',
      });
    });
  });

  describe('event', () => {
    beforeEach(() => errors.find.mockResolvedValue(errorRecord()));

    it('finds an event by its id in uuid or hex form, any case', async () => {
      errors.findEvent.mockResolvedValue(STORED);
      await expect(
        service.event(access, '42', 'BBBBBBBB-BBBB-BBBB-BBBB-BBBBBBBBBBBB'),
      ).resolves.toBe(STORED);
      expect(errors.findEvent).toHaveBeenCalledWith(3, '42', EVENT_ID);
    });

    it('answers Event Not Found for a malformed id without a lookup, and for a missing event', async () => {
      await expect(service.event(access, '42', 'xyz')).rejects.toMatchObject({
        code: ErrorTrackingErrorCode.NotFound,
        message: '404 Event Not Found',
      });
      expect(errors.findEvent).not.toHaveBeenCalled();
      errors.findEvent.mockResolvedValue(undefined);
      await expect(service.event(access, '42', EVENT_ID)).rejects.toMatchObject(
        { message: '404 Event Not Found' },
      );
    });
  });

  describe('updateStatus', () => {
    it('sets the status and lets the linked issue follow, in one transaction', async () => {
      const resolved = errorRecord({ status: 'resolved', issueIid: 4 });
      errors.setStatus.mockResolvedValue(resolved);
      follows.closeOnResolve.mockResolvedValue(4);
      await expect(
        service.updateStatus(access, '42', 'resolved'),
      ).resolves.toEqual({ error: resolved, closedIssueIid: 4 });
      expect(errors.setStatus).toHaveBeenCalledWith(
        3,
        '42',
        'resolved',
        NOW,
        tx,
        {},
      );
      expect(follows.closeOnResolve).toHaveBeenCalledWith(resolved, NOW, tx);
    });

    it('answers Error Not Found for an unknown error and leaves issues alone', async () => {
      errors.setStatus.mockResolvedValue(undefined);
      await expect(
        service.updateStatus(access, '42', 'resolved'),
      ).rejects.toMatchObject({ message: '404 Error Not Found' });
      expect(follows.closeOnResolve).not.toHaveBeenCalled();
    });
  });

  describe('createIssue', () => {
    const URL = 'https://errors.example.com/shop/errors/42';

    beforeEach(() => {
      errors.find.mockResolvedValue(errorRecord({ lastEventId: EVENT_ID }));
      errors.findEvent.mockResolvedValue(STORED);
      issues.create.mockResolvedValue(issue(5));
    });

    it('creates an issue from the locked error with its title and stack trace, and links it', async () => {
      const long = errorRecord({ title: 'T'.repeat(300) });
      errors.find
        .mockResolvedValueOnce(errorRecord({ lastEventId: EVENT_ID }))
        .mockResolvedValueOnce(long);
      await expect(
        service.createIssue(callerOf({ id: 9 }), access, '42', URL),
      ).resolves.toEqual({ issue: issue(5), created: true });
      expect(errors.find).toHaveBeenLastCalledWith(
        3,
        '42',
        { forUpdate: true },
        tx,
      );
      const [input, inTx] = issues.create.mock.lastCall ?? [];
      expect(inTx).toBe(tx);
      expect(input).toMatchObject({
        projectId: 3,
        title: 'T'.repeat(255),
        labels: [],
        authorId: 9,
        now: NOW,
      });
      expect(input?.description).toContain(URL);
      expect(input?.description).toContain('app.js');
      expect(errors.linkIssue).toHaveBeenCalledWith('42', 5, tx);
    });

    it('returns the issue already linked without creating one', async () => {
      errors.find.mockResolvedValue(errorRecord({ issueIid: 4 }));
      issues.find.mockResolvedValue(issue(4));
      await expect(
        service.createIssue(callerOf(), access, '42', URL),
      ).resolves.toEqual({ issue: issue(4), created: false });
      expect(issues.find).toHaveBeenCalledWith(3, 4, tx);
      expect(issues.create).not.toHaveBeenCalled();
      expect(errors.linkIssue).not.toHaveBeenCalled();
    });

    it('creates a new issue when the linked one is gone', async () => {
      errors.find.mockResolvedValue(errorRecord({ issueIid: 4 }));
      issues.find.mockResolvedValue(undefined);
      await expect(
        service.createIssue(callerOf(), access, '42', URL),
      ).resolves.toMatchObject({ created: true });
      expect(errors.linkIssue).toHaveBeenCalledWith('42', 5, tx);
    });

    it('answers Error Not Found when the error is unknown or gone by the time it is locked', async () => {
      errors.find.mockResolvedValueOnce(undefined);
      await expect(
        service.createIssue(callerOf(), access, '42', URL),
      ).rejects.toMatchObject({ message: '404 Error Not Found' });
      errors.find
        .mockResolvedValueOnce(errorRecord())
        .mockResolvedValueOnce(undefined);
      await expect(
        service.createIssue(callerOf(), access, '42', URL),
      ).rejects.toMatchObject({ message: '404 Error Not Found' });
      expect(issues.create).not.toHaveBeenCalled();
    });
  });
});
