import { openTestDatabase } from '@quitanda/testing';

import { compileSort } from './compile-sort';
import { SqlParams } from './sql-params';
import { openScratchTable } from '../../testing/query/scratch-table';
import type { ScratchTable } from '../../testing/query/scratch-table';

/** MongoDB's documented order for arrays, which mingo does not follow. */
describe('compileSort on arrays', () => {
  const docs = [
    { _id: 'empty', v: [] },
    { _id: 'missing' },
    { _id: 'null', v: null },
    { _id: 'three-one', v: [3, 1] },
    { _id: 'two', v: 2 },
    { _id: 'five-b', v: [5, 'b'] },
    { _id: 'a', v: ['a'] },
    { _id: 'true', v: true },
    { _id: 'nested', v: [[0]] },
    { _id: 'items', v: [{ p: 4 }, { p: 0.5 }, { q: 1 }] },
  ];
  let table: ScratchTable;

  beforeAll(async () => {
    table = await openScratchTable(openTestDatabase, 'sort_docs', docs);
  });

  afterAll(() => table?.close());

  async function order(sort: Record<string, 1 | -1>): Promise<string[]> {
    const params = new SqlParams();
    const orderBy = compileSort(sort, 'r.doc', params);
    const { rows } = await table.client.query<{ id: string }>(
      `SELECT doc ->> '_id' AS id FROM sort_docs AS r ORDER BY ${orderBy}, doc ->> '_id' COLLATE "C"`,
      params.values,
    );
    return rows.map((row) => row.id);
  }

  it('sorts an array by its smallest element ascending, an empty one first', async () => {
    await expect(order({ v: 1 })).resolves.toEqual([
      'empty',
      'missing',
      'null',
      'three-one',
      'two',
      'five-b',
      'a',
      'items',
      'nested',
      'true',
    ]);
  });

  it('sorts an array by its largest element descending', async () => {
    await expect(order({ v: -1 })).resolves.toEqual([
      'true',
      'nested',
      'items',
      'five-b',
      'a',
      'three-one',
      'two',
      'missing',
      'null',
      'empty',
    ]);
  });

  it('sorts by the smallest value a path through an array reaches', async () => {
    const ids = await order({ 'v.p': 1 });
    expect(ids.indexOf('items')).toBe(ids.length - 1);
    expect(ids.slice(0, -1)).toEqual([...ids.slice(0, -1)].sort());
  });
});
