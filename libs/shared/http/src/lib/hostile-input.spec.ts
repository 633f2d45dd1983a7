import { TransportError, TransportErrorKind } from '@quitanda/kernel';

import { assertSafeJson, assertSafeUrl, MAX_JSON_DEPTH } from './hostile-input';

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

function failure(run: () => void): TransportError {
  try {
    run();
  } catch (error) {
    if (error instanceof TransportError) return error;
    throw error;
  }
  throw new Error('expected a TransportError');
}

describe('assertSafeJson', () => {
  it('refuses a NUL in any string or key, naming the field', () => {
    expect(
      failure(() => assertSafeJson({ a: { b: ['x', 'y\u0000'] } })),
    ).toMatchObject({
      kind: TransportErrorKind.InvalidRequest,
      fieldErrors: [{ field: 'a.b.1' }],
    });
    expect(failure(() => assertSafeJson({ 'k\u0000': 1 })).kind).toBe(
      TransportErrorKind.InvalidRequest,
    );
    expect(
      failure(() => assertSafeJson('\u0000', 'query')).fieldErrors,
    ).toEqual([
      { field: 'query', message: 'must not contain a NUL character' },
    ]);
  });

  it(`accepts ${MAX_JSON_DEPTH} levels and refuses deeper, at any depth without overflowing`, () => {
    expect(() => assertSafeJson(nested(MAX_JSON_DEPTH))).not.toThrow();
    expect(failure(() => assertSafeJson(nested(MAX_JSON_DEPTH + 1))).kind).toBe(
      TransportErrorKind.MalformedBody,
    );
    expect(failure(() => assertSafeJson(nested(200_000))).kind).toBe(
      TransportErrorKind.MalformedBody,
    );
  });

  it('refuses a lone surrogate in a string or key (jsonb and jsonpath refuse it)', () => {
    expect(
      failure(() => assertSafeJson({ mimeType: 'a\ud800' })).fieldErrors,
    ).toEqual([{ field: 'mimeType', message: 'must be valid Unicode' }]);
    expect(() => assertSafeJson({ '\udfff': 1 })).toThrow(TransportError);
    expect(() => assertSafeJson({ ok: '😀 \ud83d\ude00' })).not.toThrow();
  });

  it('lets ordinary values through', () => {
    expect(() =>
      assertSafeJson({ title: 'a\\u0000b', n: [1, null, true] }),
    ).not.toThrow();
  });
});

describe('assertSafeUrl', () => {
  it('refuses %00 in a path or query, nothing else', () => {
    expect(() => assertSafeUrl('/events/%00')).toThrow(TransportError);
    expect(() => assertSafeUrl('/x?q=a%00')).toThrow(TransportError);
    expect(() => assertSafeUrl('/x?q=%2500&r=%20')).not.toThrow();
  });
});
