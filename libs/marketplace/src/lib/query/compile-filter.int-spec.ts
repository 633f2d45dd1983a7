import { openTestDatabase } from '@quitanda/testing';
import { Query } from 'mingo';

import { MarketplaceError } from '../common/marketplace.errors';
import { compileFilter } from './compile-filter';
import { compileSort } from './compile-sort';
import { SqlParams } from './sql-params';
import { mingoFind } from '../../testing/query/mingo-oracle';
import { Random } from '../../testing/query/random';
import { randomDocument } from '../../testing/query/random-documents';
import type { Doc } from '../../testing/query/random-documents';
import { randomJson } from '../../testing/query/random-json';
import { query } from '../../testing/query/random-queries';
import { openScratchTable } from '../../testing/query/scratch-table';
import type { ScratchTable } from '../../testing/query/scratch-table';

const SEED = Number(process.env['QUERY_DIFF_SEED'] ?? 20261122);
const DOCUMENTS = 300;
const QUERIES = 400;

const REGEX_TOKENS = [
  ...[
    'a',
    'B',
    '.',
    '*',
    '+',
    '?',
    '{2}',
    '{1,3}',
    '{255}',
    '{9,200}',
    '{',
    '}',
    '(',
    ')',
  ],
  ...['(?:', '(?=', '(?!', '(?<=', '(?<!', '[', ']', '[^', '-', '^', '$'],
  ...['\\d', '\\D', '\\w', '\\b', '\\B', '\\s', '\\x41', '\\u0041', '\\.'],
  ...['\\', '\\]', '\\-', '\\[', '[:', '|', '#', ' ', '\n', 'é'],
];

/** The compiled filter, or undefined when it is refused as it should be. */
function compiledOrRefused(filter: unknown, params: SqlParams) {
  try {
    return compileFilter(filter, 'r.doc', params).sql;
  } catch (error) {
    if (error instanceof MarketplaceError) return undefined;
    throw error;
  }
}

function describeDocs(ids: string[], docs: readonly Doc[]): string {
  return ids
    .slice(0, 3)
    .map((id) => JSON.stringify(docs.find((doc) => doc['_id'] === id)))
    .join(' ');
}

describe(`compileFilter and compileSort against mingo (QUERY_DIFF_SEED=${SEED})`, () => {
  const random = new Random(SEED);
  const docs = Array.from({ length: DOCUMENTS }, (_, i) =>
    randomDocument(random, i),
  );
  let table: ScratchTable;

  async function sqlIds(where: string, params: SqlParams, order = 'id') {
    const { rows } = await table.client.query<{ id: string }>(
      `SELECT doc ->> '_id' AS id FROM query_docs AS r WHERE ${where} ORDER BY ${order}`,
      params.values,
    );
    return rows.map((row) => row.id);
  }

  /** Runs each compiled filter; returns the database errors. */
  async function databaseErrors(filters: unknown[]) {
    const failures: string[] = [];
    let ran = 0;
    for (const filter of filters) {
      const params = new SqlParams();
      const sql = compiledOrRefused(filter, params);
      if (sql === undefined) continue;
      ran++;
      await sqlIds(sql, params).catch((error: Error) =>
        failures.push(`${JSON.stringify(filter)}: ${error.message}`),
      );
    }
    return { failures, ran };
  }

  beforeAll(async () => {
    table = await openScratchTable(openTestDatabase, 'query_docs', docs);
  });

  afterAll(() => table?.close());

  it(`matches the documents mingo matches for ${QUERIES} random queries`, async () => {
    const mismatches: string[] = [];
    for (let i = 0; i < QUERIES; i++) {
      const filter = query(random);
      const params = new SqlParams();
      const actual = await sqlIds(
        compileFilter(filter, 'r.doc', params).sql,
        params,
      );
      const expected = mingoFind(filter, docs).map((doc) => String(doc['_id']));
      if (actual.join() !== expected.join()) {
        const extra = actual.filter((id) => !expected.includes(id));
        const lacking = expected.filter((id) => !actual.includes(id));
        mismatches.push(
          `${JSON.stringify(filter)}\n  SQL only: ${describeDocs(extra, docs)}\n  mingo only: ${describeDocs(lacking, docs)}`,
        );
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('runs every filter it compiles from arbitrary JSON without a database error', async () => {
    const filters = Array.from({ length: 600 }, (_, i) => {
      const json = randomJson(random);
      return i % 2 ? json : { [random.pick(['a', 'tags', 'a.0.b'])]: json };
    });
    const { failures, ran } = await databaseErrors(filters);
    expect(failures).toEqual([]);
    expect(ran).toBeGreaterThan(100);
  });

  it('runs every regular expression it accepts without a database error', async () => {
    const filters = Array.from({ length: 400 }, () => ({
      name: {
        $regex: random
          .many(random.int(1, 8), () => random.pick(REGEX_TOKENS))
          .join(''),
        $options: random.pick(['', 'i', 'ms', 'x', 'imsx']),
      },
    }));
    const { failures, ran } = await databaseErrors(filters);
    expect(failures).toEqual([]);
    expect(ran).toBeGreaterThan(50);
  });

  it('orders like mingo on scalar fields, _id breaking ties', async () => {
    const fields = [
      'name',
      'qty',
      'measurement',
      'canceled',
      'meta.a',
      'meta.b.c',
    ];
    for (let i = 0; i < 40; i++) {
      const sort: Record<string, 1 | -1> = {};
      for (let n = random.int(1, 3); n > 0; n--) {
        sort[random.pick(fields)] = random.pick([1, -1] as const);
      }
      const params = new SqlParams();
      const order = compileSort(sort, 'r.doc', params);
      const actual = await sqlIds(
        'TRUE',
        params,
        `${order}, doc ->> '_id' COLLATE "C"`,
      );
      const expected = new Query({})
        .find<Doc>(docs)
        .sort({ ...sort, _id: 1 })
        .all()
        .map((doc) => String(doc['_id']));
      expect({ sort, ids: actual }).toEqual({ sort, ids: expected });
    }
  });
});
