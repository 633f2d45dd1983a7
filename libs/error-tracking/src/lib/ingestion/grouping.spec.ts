import { groupingCandidates, maskVariables, userKeyOf } from './grouping';
import { normalizeEvent } from './normalize-event';
import type { JsonObject } from '../sentry-event/event-json';

const ctx = { receivedAt: new Date('2026-11-22T10:00:00Z') };
const fingerprint = (raw: JsonObject) =>
  groupingCandidates(normalizeEvent(raw, ctx))[0]?.fingerprint;

function thrown(fn: string, line: number, extra: JsonObject = {}): JsonObject {
  return {
    exception: {
      values: [
        {
          type: 'TypeError',
          value: `bad value ${line}`,
          stacktrace: {
            frames: [
              { function: 'vendor', module: 'lib', lineno: 3, in_app: false },
              {
                function: 'handler',
                filename: 'app.js',
                lineno: line - 5,
                in_app: true,
              },
              { function: fn, filename: 'app.js', lineno: line, in_app: true },
            ],
          },
        },
      ],
    },
    ...extra,
  };
}

describe('grouping', () => {
  it('groups the same error from different lines, splits different functions', () => {
    expect(fingerprint(thrown('save', 10))).toBe(
      fingerprint(thrown('save', 99)),
    );
    expect(fingerprint(thrown('save', 10))).not.toBe(
      fingerprint(thrown('load', 10)),
    );
  });

  it('uses only in-app frames when some are marked', () => {
    const a = thrown('save', 10);
    const b = JSON.parse(JSON.stringify(a)) as JsonObject;
    const [first] = (b['exception'] as JsonObject)['values'] as JsonObject[];
    (first as JsonObject)['stacktrace'] = {
      frames: [
        { function: 'other-vendor', module: 'x', in_app: false },
        { function: 'handler', filename: 'app.js', in_app: true },
        { function: 'save', filename: 'app.js', in_app: true },
      ],
    };
    expect(fingerprint(a)).toBe(fingerprint(b));
  });

  it('groups frameless exceptions by type and masked value', () => {
    const raw = (value: string) => ({
      exception: [{ type: 'Timeout', value }],
    });
    expect(
      fingerprint(raw('request 1234 to 0xdeadbeef failed after 3.5s')),
    ).toBe(fingerprint(raw('request 98 to 0x1f failed after 10.25s')));
    expect(fingerprint(raw('job 0190b6e2-7d3a-7c4e-9b1a-3f4f5e6d7c8a'))).toBe(
      fingerprint(raw('job 11111111-2222-3333-4444-555555555555')),
    );
    expect(fingerprint(raw('disk full'))).not.toBe(
      fingerprint(raw('disk gone')),
    );
  });

  it('groups messages by template', () => {
    const log = (params: unknown[]) => ({
      logentry: { message: 'user %s failed %d times', params },
    });
    expect(fingerprint(log(['bob', 3]))).toBe(fingerprint(log(['ann', 7])));
    expect(fingerprint({ message: 'cache miss for 42' })).toBe(
      fingerprint({ message: 'cache miss for 7' }),
    );
    expect(fingerprint({ message: 'cache miss' })).not.toBe(
      fingerprint({ message: 'cache hit' }),
    );
  });

  it('lets a fingerprint override the default, or extend it with {{ default }}', () => {
    const fixed = fingerprint(
      thrown('save', 10, { fingerprint: ['payments', 'declined'] }),
    );
    expect(
      fingerprint(thrown('load', 1, { fingerprint: ['payments', 'declined'] })),
    ).toBe(fixed);
    expect(fingerprint(thrown('save', 10))).not.toBe(fixed);
    const extended = (fn: string, tag: string) =>
      fingerprint(thrown(fn, 10, { fingerprint: ['{{ default }}', tag] }));
    expect(extended('save', 'eu')).toBe(
      fingerprint(thrown('save', 50, { fingerprint: ['{{default}}', 'eu'] })),
    );
    expect(extended('save', 'eu')).not.toBe(extended('save', 'us'));
    expect(extended('save', 'eu')).not.toBe(extended('load', 'eu'));
    expect(fingerprint(thrown('save', 10, { fingerprint: [] }))).toBe(
      fingerprint(thrown('save', 10)),
    );
  });

  it('stores the algorithm version with the hash', () => {
    expect(groupingCandidates(normalizeEvent({ message: 'x' }, ctx))).toEqual([
      { version: 1, fingerprint: expect.stringMatching(/^[0-9a-f-]{36}$/) },
    ]);
  });

  it('masks numbers, hex and UUIDs', () => {
    expect(
      maskVariables(
        'id 42 at 0x1F and cafe1234babe, 0190b6e2-7d3a-7c4e-9b1a-3f4f5e6d7c8a',
      ),
    ).toBe('id <num> at <hex> and <hex>, <uuid>');
  });

  it('keys users by id, else email, username, IP', () => {
    const key = (user: JsonObject) => userKeyOf(normalizeEvent({ user }, ctx));
    expect(key({ id: 'u1', email: 'a@b' })).toBe(
      key({ id: 'u1', email: 'other@b' }),
    );
    expect(key({ email: 'a@b' })).not.toBe(key({ username: 'a@b' }));
    expect(userKeyOf(normalizeEvent({}, ctx))).toBeNull();
  });
});
