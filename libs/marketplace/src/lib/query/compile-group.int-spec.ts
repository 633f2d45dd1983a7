import { openTestDatabase } from '@quitanda/testing';
import { compileGroup } from './compile-group';
import { SqlParams } from './sql-params';
import { Random } from '../../testing/query/random';
import { randomDocument } from '../../testing/query/random-documents';
import type { Doc } from '../../testing/query/random-documents';
import { mingoFind } from '../../testing/query/mingo-oracle';
import { query } from '../../testing/query/random-queries';
import { openScratchTable } from '../../testing/query/scratch-table';
import type { ScratchTable } from '../../testing/query/scratch-table';
import { sdkGroupBody } from '../../testing/query/sdk-aggregations';
import type { SdkAggregation } from '../../testing/query/sdk-aggregations';

const SEED = Number(process.env['QUERY_DIFF_SEED'] ?? 20261122);

/** The JavaScript recount: numeric values only, as the compiler documents. */
function recount(
  docs: readonly Doc[],
  aggregation: SdkAggregation,
  field: string,
  key: readonly string[],
): Record<string, unknown>[] {
  const groups = new Map<string, Doc[]>();
  for (const doc of docs) {
    const id = JSON.stringify(key.map((k) => doc[k] ?? null));
    groups.set(id, [...(groups.get(id) ?? []), doc]);
  }
  return [...groups.entries()].map(([id, members]) => {
    const keyValues = JSON.parse(id) as unknown[];
    const numbers = members
      .map((doc) => doc[field])
      .filter((v): v is number => typeof v === 'number');
    const sum = numbers.reduce((a, b) => a + b, 0);
    const result: Record<string, Record<string, number>> = {
      count: { count: members.length },
      sum: { sum },
      min: { min: Math.min(Number.MAX_SAFE_INTEGER, ...numbers) },
      max: { max: Math.max(-Number.MAX_SAFE_INTEGER, ...numbers) },
      average: numbers.length
        ? { count: numbers.length, average: sum / numbers.length }
        : { count: 0, average: 0 },
    };
    return {
      ...Object.fromEntries(key.map((k, i) => [k, keyValues[i]])),
      ...result[aggregation],
    };
  });
}

function canonical(rows: Record<string, unknown>[]): string[] {
  return rows
    .map((row) =>
      JSON.stringify(row, (_, v: unknown) =>
        typeof v === 'number' ? Math.round(v * 1e6) / 1e6 : v,
      ),
    )
    .sort();
}

describe(`compileGroup against a recount (QUERY_DIFF_SEED=${SEED})`, () => {
  const random = new Random(SEED);
  const docs = Array.from({ length: 200 }, (_, i) => randomDocument(random, i));
  let table: ScratchTable;

  beforeAll(async () => {
    table = await openScratchTable(openTestDatabase, 'group_docs', [
      ...docs,
      { qty: 1000 },
    ]);
    // The last document belongs to another app: the caller's scope drops it.
    await table.client.query(
      `UPDATE group_docs SET app = 'other' WHERE id = $1`,
      [docs.length + 1],
    );
  });

  afterAll(() => table?.close());

  async function run(body: unknown): Promise<Record<string, unknown>[]> {
    const params = new SqlParams();
    const app = params.add('app');
    const group = compileGroup(body, 'g.doc', params);
    const { rows } = await table.client.query(
      group.select('group_docs AS g', `g.app = ${app}`),
      params.values,
    );
    return group.reply(rows);
  }

  it('equals a recount for random SDK aggregations, keys and conditions', async () => {
    const aggregations: SdkAggregation[] = [
      'count',
      'sum',
      'min',
      'max',
      'average',
    ];
    for (let i = 0; i < 60; i++) {
      const aggregation = random.pick(aggregations);
      const field = random.pick(['qty', 'price', 'name']);
      const key = random.pick([
        [],
        ['measurement'],
        ['canceled'],
        ['measurement', 'canceled'],
      ]);
      const condition = random.chance(0.6) ? query(random) : {};
      const matched = mingoFind(condition, docs);
      const expected = recount(matched, aggregation, field, key);
      const actual = await run(
        sdkGroupBody(aggregation, field, key, condition),
      );
      expect({
        aggregation,
        field,
        key,
        condition,
        groups: canonical(actual),
      }).toEqual({
        aggregation,
        field,
        key,
        condition,
        groups: canonical(expected),
      });
    }
  });

  it('answers an empty array when nothing matches', async () => {
    await expect(
      run(sdkGroupBody('count', '', [], { name: 'no such name' })),
    ).resolves.toEqual([]);
  });

  it('counts everything under a null key for the SDK count() without a field', async () => {
    const body = sdkGroupBody('count', '', [''], { qty: { $gte: 0 } });
    const expected = docs.filter(
      (d) => typeof d['qty'] === 'number' && d['qty'] >= 0,
    ).length;
    await expect(run(body)).resolves.toEqual([{ '': null, count: expected }]);
  });

  it('keeps the key fields first and adds to the initial values', async () => {
    const body = sdkGroupBody('count', 'measurement', ['measurement'], {
      measurement: 'un',
    });
    const [group] = await run({ ...body, initial: { count: 10 } });
    const expected = docs.filter((d) => d['measurement'] === 'un').length;
    expect(group).toEqual({ measurement: 'un', count: 10 + expected });
    expect(Object.keys(group ?? {})).toEqual(['measurement', 'count']);
  });
});
