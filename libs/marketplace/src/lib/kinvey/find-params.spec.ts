import { MarketplaceErrorCode } from '../common/marketplace.errors';
import { checkCap, countParam, fieldsParam, project } from './find-params';

describe('find parameters', () => {
  it('reads limit and skip as non-negative integers', () => {
    expect(countParam('10', 'limit')).toBe(10);
    expect(countParam(undefined, 'skip')).toBeUndefined();
    expect(countParam(['1', '2'], 'skip')).toBe(2);
    for (const bad of ['-1', 'ten', '1.5', '1e3'])
      expect(() => countParam(bad, 'limit')).toThrow(
        expect.objectContaining({ code: MarketplaceErrorCode.BadRequest }),
      );
  });

  it('projects fields, keeping _id and _acl', () => {
    const doc = {
      _id: 'a',
      _acl: { creator: 'u' },
      _kmd: {},
      available: [1],
      required: [],
      canceled: 'false',
    };
    expect(project(doc, fieldsParam('available, canceled'))).toEqual({
      _id: 'a',
      _acl: { creator: 'u' },
      available: [1],
      canceled: 'false',
    });
    expect(project(doc, fieldsParam(''))).toBe(doc);
  });

  it('caps unlimited results at 10,000', () => {
    expect(() => checkCap(10_000, false)).not.toThrow();
    expect(() => checkCap(10_001, true)).not.toThrow();
    expect(() => checkCap(10_001, false)).toThrow(
      expect.objectContaining({
        code: MarketplaceErrorCode.ResultSetSizeExceeded,
      }),
    );
  });
});
