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

  it('hashes by this version and by version 1, whose hashes never change', () => {
    // Version 1's hashes of these events when it was the only version.
    const v1 = (raw: JsonObject) =>
      groupingCandidates(normalizeEvent(raw, ctx)).map((c) => c.version);
    expect(v1({ message: 'x' })).toEqual([2, 1]);
    const previous = (raw: JsonObject) =>
      groupingCandidates(normalizeEvent(raw, ctx))[1]?.fingerprint;
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
