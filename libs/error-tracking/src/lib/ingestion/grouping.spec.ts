import { recordedEvent } from '../../testing/recorded-event';
import type { JsonObject } from '../sentry-event/event-json';
import { groupingCandidates, maskVariables, userKeyOf } from './grouping';
import { normalizeEvent } from './normalize-event';

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

  it('hashes by this version and by versions 2 and 1, whose hashes never change', () => {
    // Each earlier version's hashes of these events when it was the latest.
    const versions = (raw: JsonObject) =>
      groupingCandidates(normalizeEvent(raw, ctx)).map((c) => c.version);
    expect(versions({ message: 'x' })).toEqual([3, 2, 1]);
    const v2 = (raw: JsonObject) =>
      groupingCandidates(normalizeEvent(raw, ctx))[1]?.fingerprint;
    expect(v2({ message: 'cache miss for 42' })).toBe(
      '4eb1dd9f-f17e-9af7-33e9-5819691aabd8',
    );
    expect(v2(thrown('save', 10))).toBe('7343701d-ac09-b125-5d6d-fce8cd8d5219');
    const previous = (raw: JsonObject) =>
      groupingCandidates(normalizeEvent(raw, ctx))[2]?.fingerprint;
    expect(
      previous({
        platform: 'python',
        exception: {
          values: [
            {
              type: 'ValueError',
              value: 'order has no items',
              stacktrace: {
                frames: [
                  {
                    module: 'shop.orders',
                    function: 'validate',
                    lineno: 10,
                    context_line: '    raise ValueError("order has no items")',
                    in_app: true,
                  },
                ],
              },
            },
          ],
        },
      }),
    ).toBe('0dd2ff6a-4e0e-5d94-a10f-2449b9b9ba2d');
    expect(previous({ message: 'cache miss for 42' })).toBe(
      'a5d7b952-376d-0e84-590e-ad759fb4dd72',
    );
    expect(previous({ fingerprint: ['payments'], message: 'x' })).toBe(
      '7272db2a-34a4-b086-4ed0-a35d861d089e',
    );
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

describe('grouping version 2, as Sentry groups', () => {
  const py = (line: string, lineno: number, value = 'bad'): JsonObject => ({
    platform: 'python',
    exception: [
      {
        type: 'ValueError',
        value,
        stacktrace: {
          frames: [
            {
              module: 'django.core.handlers',
              function: 'inner',
              in_app: false,
            },
            {
              module: 'shop.orders',
              function: 'validate',
              lineno,
              context_line: line,
              in_app: true,
            },
          ],
        },
      },
    ],
  });
  const native = (
    fns: string[],
    extra: { value?: string; addr?: string; pkg?: string } = {},
  ): JsonObject => ({
    platform: 'native',
    exception: {
      values: [
        {
          type: 'SIGSEGV',
          value: extra.value ?? 'Segfault',
          mechanism: { type: 'signalhandler', synthetic: true },
          stacktrace: {
            frames: fns.map((fn, i) => ({
              function: fn,
              package: extra.pkg ?? '/app/crash',
              instruction_addr: extra.addr ?? `0x${(0x1000 + i).toString(16)}`,
            })),
          },
        },
      ],
    },
  });
  const browser = (filename: string): JsonObject => ({
    platform: 'javascript',
    exception: [
      {
        type: 'TypeError',
        value: 'x is undefined',
        stacktrace: {
          frames: [{ function: 'handleClick', filename, in_app: true }],
        },
      },
    ],
  });
  const java = (fn: string, module: string, line?: string): JsonObject => ({
    platform: 'java',
    exception: [
      {
        type: 'IllegalStateException',
        value: 'locked',
        stacktrace: {
          frames: [{ function: fn, module, in_app: true, context_line: line }],
        },
      },
    ],
  });

  it.each<[string, JsonObject, JsonObject, boolean]>([
    [
      'Python: two throws on different lines of one function are two errors',
      py('raise ValueError("order has no items")', 10, 'order has no items'),
      py(
        'raise ValueError("order total is negative")',
        12,
        'order total is negative',
      ),
      false,
    ],
    [
      'Python: the same throw moved by an edit above it is one error',
      py('raise ValueError("order has no items")', 10),
      py('raise ValueError("order has no items")', 14),
      true,
    ],
    [
      'Python: whitespace in the source line does not matter',
      py('    raise  ValueError("x")', 10),
      py('raise ValueError("x")\t', 10),
      true,
    ],
    [
      'Python: lines over 120 characters are ignored',
      py(`x = ${'a'.repeat(130)}`, 10),
      py(`y = ${'b'.repeat(130)}`, 11),
      true,
    ],
    [
      'Java: no source lines, frames by module and function',
      java('pay', 'com.example.Checkout', 'lock.check();'),
      java('pay', 'com.example.Checkout', 'other();'),
      true,
    ],
    [
      'Java: generated lambda names are one frame',
      java('run', 'com.example.Checkout$$Lambda$17/0x0000000800c02a00'),
      java('run', 'com.example.Checkout$$Lambda$18/0x0000000800d11e40'),
      true,
    ],
    [
      'Java: Spring proxies are one frame',
      java('pay', 'com.example.Checkout$$EnhancerBySpringCGLIB$$1a2b3c'),
      java('pay', 'com.example.Checkout$$EnhancerBySpringCGLIB$$9f8e7d'),
      true,
    ],
    [
      'native: different crashes are different errors',
      native(['main', 'parse_header']),
      native(['main', 'render_frame']),
      false,
    ],
    [
      'native: addresses, packages and signal values do not matter',
      native(['main', 'parse_header'], { addr: '0x1', value: 'Segfault' }),
      native(['main', 'parse_header'], {
        addr: '0x7f',
        value: 'Segfault at 0x0',
        pkg: '/opt/crash',
      }),
      true,
    ],
    [
      'native: parameter lists and offsets are not the function',
      native(['main', 'ns::Parser::header(char const*, int)']),
      native(['main', 'ns::Parser::header(char const*, long) + 12']),
      true,
    ],
    [
      'JavaScript: cache-busting query strings do not split',
      browser('/static/cart.js?v=12'),
      browser('/static/cart.js?v=13'),
      true,
    ],
  ])('%s', (_case, a, b, same) => {
    expect(fingerprint(a) === fingerprint(b)).toBe(same);
  });
});

describe("grouping version 3, Sentry's rules (recorded SDK payloads)", () => {
  const hashes = (raw: JsonObject) =>
    groupingCandidates(normalizeEvent(raw, ctx)).map((c) => c.fingerprint);
  const message = (text: string) =>
    recordedEvent('python-1.21.0/002-message.json', { message: text });

  it('parameterises messages on whole tokens only', () => {
    const [v3a, v2a] = hashes(message('sync of iso_40days failed'));
    const [v3b, v2b] = hashes(message('sync of iso_25days failed'));
    expect(v3a).not.toBe(v3b);
    // Version 2 masked digits inside words.
    expect(v2a).toBe(v2b);
  });

  it("replaces Sentry's kinds of value, so occurrences differing only in them are one error", () => {
    const a = message(
      'order 1234 for jane@example.com from 10.0.0.12 took 120ms at 2026-11-29T05:45:20Z (trace 0190b6e2-7d3a-7c4e-9b1a-3f4f5e6d7c8a, https://shop.example/o/1234)',
    );
    const b = message(
      'order 98 for li@example.org from 2001:db8::7 took 3.5s at 2026-12-01T22:10:00Z (trace 3f4f5e6d-7d3a-7c4e-9b1a-0190b6e27c8a, https://shop.example/o/98?x=1)',
    );
    expect(hashes(a)[0]).toBe(hashes(b)[0]);
    // The recorded Python 1.9 and 1.21 messages differ only in the version.
    const older = recordedEvent('python-1.9.10/002-message.json');
    const newer = recordedEvent('python-1.21.0/002-message.json');
    expect(hashes(older)[0]).toBe(hashes(newer)[0]);
  });

  it('groups a message by its first two non-empty lines', () => {
    const a = message('import failed\n\nline 2 of 9\ndetail a');
    const b = message('import failed\nline 2 of 9\ndetail b');
    expect(hashes(a)[0]).toBe(hashes(b)[0]);
    expect(hashes(a)[0]).not.toBe(hashes(message('import failed'))[0]);
  });

  it('parameterises a frameless exception value', () => {
    const withValue = (value: string) => {
      const event = recordedEvent(
        'python-1.21.0/001-exception.json',
        {},
        () => [],
      );
      const [exception] = (event['exception'] as { values: JsonObject[] })
        .values;
      return { ...event, exception: { values: [{ ...exception, value }] } };
    };
    expect(hashes(withValue('timeout after 30s on db-7'))[0]).toBe(
      hashes(withValue('timeout after 45s on db-7'))[0],
    );
    expect(hashes(withValue('timeout on db_7'))[0]).not.toBe(
      hashes(withValue('timeout on db_8'))[0],
    );
  });

  describe('native stack traces (recorded: a Rust panic)', () => {
    /** An address inside the recorded event's libc image. */
    const LIBC = '0x7fe831a50000';
    const rust = (edit: (frame: JsonObject) => JsonObject[]) =>
      recordedEvent('rust-0.31.0/001-exception+session.json', {}, (frames) =>
        frames.flatMap(edit),
      );
    const generic = (type: string) => (frame: JsonObject) =>
      frame['function'] === 'sentry_rust_client::outer'
        ? [{ ...frame, function: `sentry_rust_client::outer::<${type}>` }]
        : [frame];

    it('lands crashes differing only in system frames and function decorations in one error', () => {
      const a = rust(generic('u8'));
      const b = rust((frame) => {
        const [edited] = generic('u16')(frame) as [JsonObject];
        // The SDK marks every frame without a crate in app, libc's too.
        if (edited['function'] === '__libc_start_main_impl')
          return [{ ...edited, function: '__libc_start_main_alias_2' }];
        if (edited['function'] === 'sentry_rust_client::middle')
          return [
            {
              function: 'qsort_r',
              filename: 'qsort.c',
              in_app: true,
              instruction_addr: LIBC,
            },
            { ...edited, function: 'sentry_rust_client::middle + 0x1b' },
          ];
        return [edited];
      });
      const [v3a, v2a] = hashes(a);
      const [v3b, v2b] = hashes(b);
      expect(v3a).toBe(v3b);
      expect(v2a).not.toBe(v2b);
    });

    it('still tells different crashes apart', () => {
      const other = rust((frame) =>
        frame['function'] === 'sentry_rust_client::innermost'
          ? [{ ...frame, function: 'sentry_rust_client::parse' }]
          : [frame],
      );
      expect(hashes(other)[0]).not.toBe(hashes(rust((f) => [f]))[0]);
    });
  });
});
