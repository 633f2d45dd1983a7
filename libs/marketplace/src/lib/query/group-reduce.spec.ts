import { MarketplaceErrorCode } from '../common/marketplace.errors';
import { compileGroup } from './compile-group';
import { recogniseReduce } from './group-reduce';
import { SqlParams } from './sql-params';
import { errorCode } from '../../testing/query/error-code';
import { sdkGroupBody } from '../../testing/query/sdk-aggregations';

describe('recogniseReduce', () => {
  it.each([
    ['count', 'price', { kind: 'count', out: 'count' }],
    ['sum', 'price', { kind: 'sum', out: 'sum', field: 'price' }],
    ['min', "it's", { kind: 'min', out: 'min', field: "it's" }],
    ['max', 'a b', { kind: 'max', out: 'max', field: 'a b' }],
    [
      'average',
      'price',
      { kind: 'average', out: 'average', counter: 'count', field: 'price' },
    ],
  ] as const)('recognises the 7.x SDK %s', (aggregation, field, expected) => {
    const body = sdkGroupBody(aggregation, field, []);
    expect(recogniseReduce(body['reduce'])).toEqual(expected);
  });

  it('recognises the 1.x SDK average, which has no return', () => {
    const reduce =
      'function(doc, out) {  out.result = (out.result * out.count + doc["price"]) / (out.count + 1);  out.count += 1;}';
    expect(recogniseReduce(reduce)).toEqual({
      kind: 'average',
      out: 'result',
      counter: 'count',
      field: 'price',
    });
  });

  it.each([
    'function(doc, out) { out.count += 2; return out; }',
    'function(doc, out) { out.sum += doc["a"]; require("fs"); return out; }',
    'function(doc, out) { out.sum += doc[a]; }',
    'function(doc, out) { out.x = Math.min(out.y, doc["a"]); }',
    'while(true){}',
    42,
    undefined,
  ])('refuses %j as FeatureUnavailable', (reduce) => {
    expect(() => recogniseReduce(reduce)).toThrow(
      expect.objectContaining({
        code: MarketplaceErrorCode.FeatureUnavailable,
      }) as Error,
    );
  });
});

describe('compileGroup', () => {
  it('refuses a body that is not an object or lacks its initial counters', () => {
    for (const body of [
      [],
      'x',
      { ...sdkGroupBody('sum', 'a', []), initial: {} },
    ]) {
      expect(
        errorCode(() => compileGroup(body, 'r.doc', new SqlParams())),
      ).toBe(MarketplaceErrorCode.BadRequest);
    }
  });

  it('refuses finalize and keyf: they are client code', () => {
    for (const extra of [
      { finalize: 'function(out) {}' },
      { keyf: 'function(doc) {}' },
    ]) {
      const body = { ...sdkGroupBody('count', 'a', []), ...extra };
      expect(
        errorCode(() => compileGroup(body, 'r.doc', new SqlParams())),
      ).toBe(MarketplaceErrorCode.FeatureUnavailable);
    }
  });

  it('keeps the field and key names out of the SQL text', () => {
    const params = new SqlParams();
    const evil = "x'; DROP TABLE t; --";
    const group = compileGroup(
      sdkGroupBody('sum', evil, [evil], { [evil]: 1 }),
      'r.doc',
      params,
    );
    const sql = group.select('t AS r', 'TRUE');
    expect(sql).not.toContain('DROP');
    expect(params.values).toContain(evil);
  });
});
