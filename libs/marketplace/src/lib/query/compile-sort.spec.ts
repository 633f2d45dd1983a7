import { MarketplaceErrorCode } from '../common/marketplace.errors';
import { compileSort } from './compile-sort';
import { SqlParams } from './sql-params';
import { errorCode } from '../../testing/query/error-code';

describe('compileSort', () => {
  it('is empty without a sort', () => {
    expect(compileSort(undefined, 'r.doc', new SqlParams())).toBe('');
    expect(compileSort({}, 'r.doc', new SqlParams())).toBe('');
  });

  it('orders each field by one key, in priority order, names as parameters', () => {
    const params = new SqlParams();
    const sql = compileSort({ "b'; DROP": -1, a: 1 }, 'r.doc', params);
    expect(params.values).toEqual([
      ["b'; DROP"],
      'lax $."b\'; DROP"',
      ['a'],
      'lax $."a"',
    ]);
    expect(sql.indexOf('$1')).toBeLessThan(sql.indexOf('$2'));
    expect(sql).not.toContain('DROP');
    expect(sql).toContain('END DESC, ');
    expect(sql.endsWith('END ASC')).toBe(true);
  });

  it.each([
    [[['a', 1]]],
    ['name'],
    [{ a: 'asc' }],
    [{ a: 0 }],
    [{ 'a..b': 1 }],
  ])('refuses %j as BadRequest', (sort) => {
    expect(errorCode(() => compileSort(sort, 'r.doc', new SqlParams()))).toBe(
      MarketplaceErrorCode.BadRequest,
    );
  });
});
