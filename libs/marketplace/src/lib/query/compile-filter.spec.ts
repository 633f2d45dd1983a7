import { MarketplaceErrorCode } from '../common/marketplace.errors';
import { compileFilter } from './compile-filter';
import { parseJsonParam } from './parse-json-param';
import { SqlParams } from './sql-params';
import { errorCode } from '../../testing/query/error-code';

function compile(filter: unknown) {
  const params = new SqlParams();
  return { ...compileFilter(filter, 'r.doc', params), values: params.values };
}

describe('parseJsonParam', () => {
  it('reads absent and empty parameters as no value', () => {
    expect(parseJsonParam(undefined, 'query')).toBeUndefined();
    expect(parseJsonParam('', 'sort')).toBeUndefined();
  });

  it('parses JSON', () => {
    expect(parseJsonParam('{"a":{"$gt":1}}', 'query')).toEqual({
      a: { $gt: 1 },
    });
  });

  it('refuses malformed JSON as InvalidQuerySyntax and says why', () => {
    expect(errorCode(() => parseJsonParam('{"a":', 'query'))).toBe(
      MarketplaceErrorCode.InvalidQuerySyntax,
    );
    expect(() => parseJsonParam('{"a":', 'query')).toThrow(
      expect.objectContaining({
        debug: expect.stringMatching(
          /^The query parameter is not valid JSON: /,
        ) as string,
      }) as Error,
    );
  });
});

describe('compileFilter', () => {
  it('compiles no filter and {} to TRUE', () => {
    expect(compile(undefined)).toEqual({
      sql: 'TRUE',
      usesRegex: false,
      values: [],
    });
    expect(compile({})).toEqual({ sql: 'TRUE', usesRegex: false, values: [] });
  });

  it.each([
    ['an unknown operator', { a: { $foo: 1 } }],
    ['an unknown top-level operator', { $foo: [{ a: 1 }] }],
    ['a non-object query', [1, 2]],
    ['$and without an array', { $and: { a: 1 } }],
    ['an empty $or', { $or: [] }],
    ['$in without an array', { a: { $in: 1 } }],
    ['$options without $regex', { a: { $options: 'i' } }],
    ['unknown regex options', { a: { $regex: 'a', $options: 'g' } }],
    ['a regex that does not compile', { a: { $regex: '(' } }],
    ['a regex that is not text', { a: { $regex: 5 } }],
    ['a negative $size', { a: { $size: -1 } }],
    ['$mod by zero', { a: { $mod: [0, 1] } }],
    ['$mod with one number', { a: { $mod: [2] } }],
    ['$not with a value', { a: { $not: 5 } }],
    ['$elemMatch with a value', { a: { $elemMatch: 5 } }],
    ['operators mixed with fields', { a: { $gt: 1, b: 2 } }],
    ['an empty path segment', { 'a..b': 1 }],
    ['a $ path segment', { 'a.$b': 1 }],
    ['a path of 40 parts', { [Array(40).fill('a').join('.')]: null }],
    ['text with NUL', { a: 'x\u0000' }],
    ['an unpaired surrogate', { a: '\ud800' }],
  ])('refuses %s as InvalidQuerySyntax', (_, filter) => {
    expect(errorCode(() => compile(filter))).toBe(
      MarketplaceErrorCode.InvalidQuerySyntax,
    );
  });

  it.each([
    ['$near', { loc: { $near: [1, 2] } }],
    [
      '$nearSphere with $maxDistance',
      { loc: { $nearSphere: [1, 2], $maxDistance: 5 } },
    ],
    [
      '$geoWithin',
      {
        loc: {
          $geoWithin: {
            $box: [
              [0, 0],
              [1, 1],
            ],
          },
        },
      },
    ],
    [
      '$within $box',
      {
        loc: {
          $within: {
            $box: [
              [0, 0],
              [1, 1],
            ],
          },
        },
      },
    ],
    ['$geoIntersects', { loc: { $geoIntersects: {} } }],
    ['$where (client code is never run)', { $where: 'this.a > 1' }],
    ['$expr', { $expr: { $gt: ['$a', 1] } }],
    ['$gt against an object', { a: { $gt: { b: 1 } } }],
  ])('refuses %s as FeatureUnavailable', (_, filter) => {
    expect(errorCode(() => compile(filter))).toBe(
      MarketplaceErrorCode.FeatureUnavailable,
    );
  });

  it('reports a regex so the caller can bound it with a timeout', () => {
    expect(compile({ a: { $regex: '^x' } }).usesRegex).toBe(true);
    expect(
      compile({ a: { $not: { $regex: '^x', $options: 'i' } } }).usesRegex,
    ).toBe(true);
    expect(compile({ a: 'x' }).usesRegex).toBe(false);
  });

  it('keeps every value and field name out of the SQL text', () => {
    const evil = "x'; DROP TABLE records; --";
    const quoted = 'a"b\\c';
    const filter = {
      [evil]: evil,
      [`${quoted}.${evil}`]: { $in: [evil, quoted], $ne: { [evil]: evil } },
      tags: { $all: [evil], $elemMatch: { [evil]: { $regex: evil } } },
      $or: [
        { n: { $gt: evil } },
        { [`${evil}.0`]: null },
        { m: { $mod: [3, 1] } },
      ],
      s: { $size: 2 },
    };
    const { sql, values } = compile(filter);
    expect(sql).not.toContain('DROP');
    expect(sql).not.toContain("x'");
    expect(sql).not.toContain(quoted);
    expect(sql.replace(/\$\d+/g, '')).not.toMatch(/\b[23]\b/);
    expect(JSON.stringify(values)).toContain('DROP TABLE');
    // Placeholders are numbered in order and each one is used.
    values.forEach((_, i) => expect(sql).toContain(`$${i + 1}`));
  });

  it('compiles equality to a value as containment a GIN index can serve', () => {
    expect(compile({ id_producer: 'p1' })).toEqual({
      sql: '(r.doc @> $1::jsonb OR r.doc @> $2::jsonb)',
      usesRegex: false,
      values: ['{"id_producer":"p1"}', '{"id_producer":["p1"]}'],
    });
    const { values } = compile({ 'available.name': { $in: ['a', 'b'] } });
    expect(values).toContain('{"available":[{"name":["b"]}]}');
    expect(values).toHaveLength(8);
  });

  it('numbers parameters after the caller’s own', () => {
    const params = new SqlParams(2);
    const { sql } = compileFilter({ a: 1 }, 'r.doc', params);
    expect(sql).toContain('$3');
    expect(sql).not.toContain('$1');
  });
});
