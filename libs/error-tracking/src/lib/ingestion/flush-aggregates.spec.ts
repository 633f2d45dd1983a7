import {
  aggregateFresh,
  mergeBuckets,
  mergeDiscards,
  mergeSessions,
} from './flush-aggregates';
import type { PreparedEvent } from './ingest-request';

function event(
  fingerprint: string,
  at: string,
  extra: Partial<PreparedEvent> = {},
): PreparedEvent {
  return {
    eventId: Math.random().toString(16).slice(2).padEnd(32, '0'),
    timestamp: new Date(at),
    receivedAt: new Date(at),
    fingerprint,
    groupingVersion: 1,
    level: 'error',
    logger: null,
    release: null,
    environment: 'production',
    platform: 'node',
    title: 't',
    type: 'E',
    message: 'm',
    culprit: 'c',
    userKey: null,
    payloadJson: '{}',
    ...extra,
  };
}

describe('flush aggregates', () => {
  it('folds a flush into one delta per error: count, first and latest event, hours, facets', () => {
    const early = event('f1', '2026-11-22T09:10:00Z', { release: 'r1' });
    const late = event('f1', '2026-11-22T10:20:00Z', {
      release: 'r2',
      level: 'fatal',
    });
    const tie = event('f1', '2026-11-22T10:20:00Z', {
      release: 'r3',
      environment: 'staging',
    });
    const other = event('f2', '2026-11-22T10:30:00Z');
    const { errors, hourly, facets } = aggregateFresh(
      [late, early, tie, other].map((e) => ({ projectId: 1, event: e })),
      new Map([['1:f1', 2]]),
    );
    expect(errors).toHaveLength(2);
    const f1 = errors.find((e) => e.fingerprint === 'f1');
    expect(f1).toMatchObject({
      events: 3,
      newUsers: 2,
      first: early,
      last: tie,
    });
    expect(
      hourly
        .filter((h) => h.fingerprint === 'f1')
        .map((h) => [h.hour.toISOString(), h.count]),
    ).toEqual([
      ['2026-11-22T10:00:00.000Z', 2],
      ['2026-11-22T09:00:00.000Z', 1],
    ]);
    expect(
      facets
        .filter((f) => f.fingerprint === 'f1')
        .map((f) => `${f.kind}=${f.value}`)
        .sort(),
    ).toEqual([
      'environment=production',
      'environment=staging',
      'release=r1',
      'release=r2',
      'release=r3',
    ]);
  });

  it('merges session updates per sid, buckets and discards per key', () => {
    const base = {
      release: '1',
      environment: 'e',
      startedAt: new Date('2026-01-01T00:00:00Z'),
      seenAt: new Date('2026-01-01T00:00:00Z'),
      errored: false,
      crashed: false,
      abnormal: false,
    };
    const merged = mergeSessions([
      { projectId: 1, session: { ...base, sid: 's' } },
      {
        projectId: 1,
        session: {
          ...base,
          sid: 's',
          errored: true,
          seenAt: new Date('2026-01-01T01:00:00Z'),
        },
      },
      { projectId: 2, session: { ...base, sid: 's' } },
    ]);
    expect(merged).toHaveLength(2);
    expect(merged[0]?.session).toMatchObject({
      errored: true,
      seenAt: new Date('2026-01-01T01:00:00Z'),
    });
    const bucket = {
      release: '1',
      environment: 'e',
      started: new Date(0),
      exited: 1,
      errored: 0,
      crashed: 1,
      abnormal: 0,
    };
    expect(
      mergeBuckets([
        { projectId: 1, bucket },
        { projectId: 1, bucket },
      ])[0]?.bucket,
    ).toMatchObject({ exited: 2, crashed: 2 });
    const discard = {
      source: 'client' as const,
      reason: 'r',
      category: 'error',
      quantity: 2,
    };
    expect(
      mergeDiscards([
        { projectId: 1, day: '2026-01-01', discard },
        { projectId: 1, day: '2026-01-01', discard },
      ]),
    ).toEqual([
      { projectId: 1, day: '2026-01-01', discard: { ...discard, quantity: 4 } },
    ]);
  });
});
