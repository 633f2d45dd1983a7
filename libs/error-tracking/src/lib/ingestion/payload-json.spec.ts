import { cutDeepValues, nestsDeeperThan } from './payload-json';

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
  it('counts brackets outside strings only', () => {
    const text = (value: unknown) => Buffer.from(JSON.stringify(value));
    expect(nestsDeeperThan(text(nested(3)), 3)).toBe(false);
    expect(nestsDeeperThan(text(nested(4)), 3)).toBe(true);
    expect(nestsDeeperThan(text({ s: '[[[[{{{{"\\' }), 1)).toBe(false);
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
