import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';
import { Query } from 'mingo';
import { Client } from 'pg';

import { compileFilter } from './compile-filter';
import { compileSort } from './compile-sort';
import { SqlParams } from './sql-params';
import { Random } from './testing/random';
import { randomDocument } from './testing/random-documents';
import type { Doc } from './testing/random-documents';
import { query } from './testing/random-queries';

/** mingo lacks the x option; the generated patterns hold no whitespace. */
function forMingo(filter: unknown): unknown {
  if (Array.isArray(filter)) return filter.map(forMingo);
  if (typeof filter !== 'object' || filter === null) return filter;
  return Object.fromEntries(
    Object.entries(filter).map(([key, value]) => [
      key,
      key === '$options' ? String(value).replace('x', '') : forMingo(value),
    ]),
  );
}

const SEED = Number(process.env['QUERY_DIFF_SEED'] ?? 20261122);
const DOCUMENTS = 300;
const QUERIES = 400;

describe(`compileFilter and compileSort against mingo (QUERY_DIFF_SEED=${SEED})`, () => {
  let database: TestDatabase;
  let client: Client;
  const random = new Random(SEED);
  const docs: Doc[] = random.many(DOCUMENTS, () => ({}));

  async function sqlIds(
    where: string,
    params: SqlParams,
    order = 'id',
  ): Promise<string[]> {
    const { rows } = await client.query<{ id: string }>(
      `SELECT doc ->> '_id' AS id FROM query_docs AS r WHERE ${where} ORDER BY ${order}`,
      params.values,
    );
    return rows.map((row) => row.id);
  }

  beforeAll(async () => {
    docs.forEach((_, i) => (docs[i] = randomDocument(random, i)));
    database = await openTestDatabase();
    client = new Client({ connectionString: database.url });
    await client.connect();
    await client.query(
      'CREATE TABLE query_docs (id int PRIMARY KEY, doc jsonb NOT NULL)',
    );
    await client.query(
      `INSERT INTO query_docs SELECT ordinality::int, value FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY`,
      [JSON.stringify(docs)],
    );
  });

  afterAll(async () => {
    await client?.end();
    await database?.close();
  });

  it(`matches the documents mingo matches for ${QUERIES} random queries`, async () => {
    const mismatches: string[] = [];
    for (let i = 0; i < QUERIES; i++) {
      const filter = query(random);
      const params = new SqlParams();
      const compiled = compileFilter(filter, 'r.doc', params);
      const actual = await sqlIds(compiled.sql, params);
      const expected = new Query(forMingo(filter) as Doc)
        .find<Doc>(docs)
        .all()
        .map((doc) => String(doc['_id']));
      if (actual.join() !== expected.join()) {
        const extra = actual.filter((id) => !expected.includes(id));
        const lacking = expected.filter((id) => !actual.includes(id));
        mismatches.push(
          `${JSON.stringify(filter)}\n  SQL only: ${extra.slice(0, 3).map((id) => JSON.stringify(docs.find((d) => d['_id'] === id)))}\n  mingo only: ${lacking.slice(0, 3).map((id) => JSON.stringify(docs.find((d) => d['_id'] === id)))}`,
        );
      }
    }
    expect(mismatches).toEqual([]);
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
