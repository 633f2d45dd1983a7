import { PAYLOAD_DEPTH_MAX } from './limits';
import {
  cutDeepValues,
  nestsDeeperThan,
  parsePayloadJson,
  exactIntegerText,
} from './payload-json';
import { serializePayload } from './prepare-request';

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

function depthOf(value: unknown): number {
  let depth = 0;
  for (let v = value; v !== null && typeof v === 'object'; depth++)
    v = Object.values(v as object)[0];
  return depth;
}

describe('nestsDeeperThan', () => {
  it('counts nested objects and arrays, not brackets inside strings', () => {
    expect(nestsDeeperThan(nested(3), 3)).toBe(false);
    expect(nestsDeeperThan(nested(4), 3)).toBe(true);
    expect(nestsDeeperThan({ s: '[[[[{{{{"\\' }, 1)).toBe(false);
    expect(nestsDeeperThan('leaf', 0)).toBe(false);
  });

  it('finds the deep branch among shallow ones, without recursion', () => {
    expect(nestsDeeperThan({ a: [1, 2], b: { c: nested(31) } }, 33)).toBe(
      false,
    );
    expect(nestsDeeperThan({ a: [1, 2], b: { c: nested(31) } }, 32)).toBe(true);
    expect(nestsDeeperThan(nested(100_000), 32)).toBe(true);
  });
});

describe('cutDeepValues', () => {
  it('keeps the limit and replaces deeper values, without recursion', () => {
    const cut = cutDeepValues(nested(100_000), 32);
    expect(depthOf(cut)).toBe(32);
    expect(JSON.stringify(cut)).toMatch(/"\[(Object|Array)\]"/);
  });

  it('leaves a shallow value untouched', () => {
    const value = { a: [1, { b: 'c' }], d: null };
    expect(cutDeepValues(structuredClone(value), 32)).toEqual(value);
  });
});

describe('parsePayloadJson', () => {
  it('cuts a payload nested 100,000 deep at the limit and leaves a shallow one whole', () => {
    const deep = Buffer.from(
      `{"extra":${'['.repeat(100_000)}1${']'.repeat(100_000)},"level":"error"}`,
    );
    const cut = parsePayloadJson(deep) as Record<string, unknown>;
    expect(depthOf(cut)).toBe(PAYLOAD_DEPTH_MAX);
    expect(cut['level']).toBe('error');
    const shallow = { a: [1, { b: 'c' }], d: null };
    expect(parsePayloadJson(Buffer.from(JSON.stringify(shallow)))).toEqual(
      shallow,
    );
  });
});

describe('parsePayloadJson, weighed', () => {
  const weighOf = (text: string): number[] => {
    const told: number[] = [];
    parsePayloadJson(Buffer.from(text), 0, Buffer.byteLength(text), (v) =>
      told.push(v),
    );
    return told;
  };

  it('tells a small text its values once, counted as they are walked', () => {
    // The object, its array, 1, the inner object and "c,,,": five values
    // (keys are their objects'); commas inside a string count for nothing.
    expect(weighOf('{"a":[1,{"b":"c,,,"}]}')).toEqual([5]);
    expect(weighOf('"text"')).toEqual([1]);
    expect(weighOf(`[${'{},'.repeat(999)}{}]`)).toEqual([1_001]);
  });

  it('tells a large text its values before it is parsed, and a refusal stops the parse', () => {
    const large = `{"pad":[${'{},'.repeat(40_000)}{}]}`;
    // Counted from the bytes: at least every value the text parses into.
    expect(weighOf(large)[0]).toBeGreaterThanOrEqual(40_003);
    const parse = jest.spyOn(JSON, 'parse');
    const refusal = new Error('the budget is spent');
    expect(() =>
      parsePayloadJson(Buffer.from(large), 0, large.length, () => {
        throw refusal;
      }),
    ).toThrow(refusal);
    expect(parse).not.toHaveBeenCalled();
    parse.mockRestore();
  });
});

describe('parsePayloadJson, exact integers', () => {
  const big = '18446744073709551615';
  it.each([
    [`{"thread_id":${big}}`, `{"thread_id":${big}}`],
    [`{"a":[-${big}, 1]}`, `{"a":[-${big},1]}`],
    [
      `{"s":"${big}","n":9007199254740991}`,
      `{"s":"${big}","n":9007199254740991}`,
    ],
    [`{"f":1234567890123456789.5}`, `{"f":1234567890123456800}`],
    [`{"s":":${big}"}`, `{"s":":${big}"}`],
  ])('%s comes back as %s', (sent, stored) => {
    const value = parsePayloadJson(Buffer.from(sent));
    expect(serializePayload(value as Record<string, unknown>)).toBe(stored);
  });

  it('reads an exact integer as its digits where text is wanted', () => {
    const value = parsePayloadJson(Buffer.from(`{"id":${big}}`)) as Record<
      string,
      unknown
    >;
    expect(exactIntegerText(value['id'])).toBe(big);
  });
});
