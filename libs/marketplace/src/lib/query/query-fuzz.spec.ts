import { MarketplaceError } from '../common/marketplace.errors';
import { compileFilter } from './compile-filter';
import { compileGroup } from './compile-group';
import { compileSort } from './compile-sort';
import { SqlParams } from './sql-params';
import { Random } from '../../testing/query/random';
import { randomJson } from '../../testing/query/random-json';

const SEED = Number(process.env['QUERY_DIFF_SEED'] ?? 20261122);

/** Compiles, or refuses with a MarketplaceError: never anything else. */
function outcome(compile: () => unknown): 'compiled' | 'refused' {
  try {
    compile();
    return 'compiled';
  } catch (error) {
    if (error instanceof MarketplaceError) return 'refused';
    throw error;
  }
}

describe(`query compilers on arbitrary JSON (QUERY_DIFF_SEED=${SEED})`, () => {
  const random = new Random(SEED);

  it('compile a filter or refuse it with a MarketplaceError', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 5000; i++) {
      const filter = randomJson(random);
      seen.add(outcome(() => compileFilter(filter, 'r.doc', new SqlParams())));
    }
    expect([...seen].sort()).toEqual(['compiled', 'refused']);
  });

  it('compile a sort or a _group body or refuse it with a MarketplaceError', () => {
    for (let i = 0; i < 2000; i++) {
      const json = randomJson(random);
      outcome(() => compileSort(json, 'r.doc', new SqlParams()));
      outcome(() =>
        compileGroup(
          {
            key: json,
            initial: { count: 0 },
            reduce: 'function(doc, out) { out.count += 1; }',
            condition: json,
          },
          'r.doc',
          new SqlParams(),
        ),
      );
    }
  });

  it('refuses deeply nested and oversized queries', () => {
    let deep: unknown = { a: 1 };
    for (let i = 0; i < 50; i++) deep = { $and: [deep] };
    expect(() => compileFilter(deep, 'r.doc', new SqlParams())).toThrow(
      MarketplaceError,
    );
    let value: unknown = 1;
    for (let i = 0; i < 5000; i++) value = [value];
    expect(() => compileFilter({ a: value }, 'r.doc', new SqlParams())).toThrow(
      MarketplaceError,
    );
    const fields = Object.fromEntries(
      Array.from({ length: 1000 }, (_, i) => [`f${i}`, i]),
    );
    expect(() => compileFilter(fields, 'r.doc', new SqlParams())).toThrow(
      MarketplaceError,
    );
    const wide = {
      $or: Array.from({ length: 1000 }, (_, i) => ({ [`f${i}`]: i })),
    };
    expect(() => compileFilter(wide, 'r.doc', new SqlParams())).toThrow(
      MarketplaceError,
    );
  });
});
