import { openTestDatabase } from '@quitanda/testing';
import { Query } from 'mingo';

import { MarketplaceError } from '../common/marketplace.errors';
import { compileFilter } from './compile-filter';
import { compileSort } from './compile-sort';
import { SqlParams } from './sql-params';
import { mingoFind } from '../../testing/query/mingo-oracle';
import { Random } from '../../testing/query/random';
import type { Doc } from '../../testing/query/random-documents';
import { openScratchTable } from '../../testing/query/scratch-table';
import type { ScratchTable } from '../../testing/query/scratch-table';

const SEED = Number(process.env['QUERY_DIFF_SEED'] ?? 20261125);
const DOCUMENTS = 200;
const QUERIES = 400;

/** The fields the documents below always hold as strings when present. */
const TEXT_FIELDS = new Set(['id_producer', '_kmd.lmt', 'canceled']);
const FIELDS = [...TEXT_FIELDS];

const PRODUCERS = ['p1', 'p2', 'P1', 'p10', '', 'é', 'z'];
const TIMES = [
  '2026-01-01T00:00:00.000Z',
  '2026-06-15T12:30:00.000Z',
  '2026-11-25T07:00:00.000Z',
];

const STORED: Record<string, string[]> = {
  id_producer: PRODUCERS,
  canceled: ['true', 'false'],
};
const NEAR: Record<string, string[]> = {
  id_producer: ['p', 'p11', 'q'],
  canceled: ['True', 'fals'],
};

/** Text fields as the collection rules keep them: a string, or absent. */
function document(random: Random, i: number): Doc {
  const doc: Doc = { _id: `d${String(i).padStart(3, '0')}` };
  if (random.chance(0.85)) doc['id_producer'] = random.pick(PRODUCERS);
  if (random.chance(0.9))
    doc['_kmd'] = random.chance(0.9) ? { lmt: random.pick(TIMES) } : {};
  if (random.chance(0.5)) doc['canceled'] = random.pick(['true', 'false']);
  return doc;
}

/** Operands of every JSON type, strings near the stored ones included. */
function operand(random: Random, field: string): unknown {
  return random.pick<() => unknown>([
    () => random.pick(STORED[field] ?? TIMES),
    () => random.pick(NEAR[field] ?? ['2026-03']),
    () => null,
    () => random.int(-1, 3),
    () => random.chance(0.5),
    () => [random.pick(PRODUCERS)],
    () => ({ a: 1 }),
  ])();
}

function condition(random: Random, field: string, depth: number): unknown {
  const value = () => operand(random, field);
  const list = () => random.many(random.int(0, 3), value);
  return random.pick<() => unknown>([
    value,
    () => ({ $eq: value() }),
    () => ({ $ne: value() }),
    () => ({ $in: list() }),
    () => ({ $nin: list() }),
    // Not null: mingo is not the oracle there (docs/decisions.md), see below.
    () => ({
      [random.pick(['$gt', '$gte', '$lt', '$lte'])]:
        value() ?? random.pick(TIMES),
    }),
    () => ({ $gte: random.pick(TIMES), $lt: random.pick(TIMES) }),
    () => ({ $exists: random.chance(0.5) }),
    () =>
      depth < 2
        ? { $not: condition(random, field, depth + 1) }
        : { $exists: true },
  ])();
}

function filter(random: Random, depth = 0): Record<string, unknown> {
  if (depth < 2 && random.chance(0.25)) {
    const op = random.pick(['$and', '$or', '$nor']);
    return {
      [op]: random.many(random.int(1, 3), () => filter(random, depth + 1)),
    };
  }
  const field = random.pick(FIELDS);
  const compiled = condition(random, field, 0);
  // `$not` needs operators; a plain value under it is MongoDB's error.
  const safe =
    typeof compiled === 'object' &&
    compiled !== null &&
    '$not' in compiled &&
    (typeof compiled.$not !== 'object' ||
      compiled.$not === null ||
      Array.isArray(compiled.$not) ||
      !Object.keys(compiled.$not).every((k) => k.startsWith('$')))
      ? { $exists: true }
      : compiled;
  const out: Record<string, unknown> = { [field]: safe };
  if (random.chance(0.2)) out['canceled'] = random.pick(['true', 'false']);
  return out;
}

describe(`text fields against mingo (QUERY_DIFF_SEED=${SEED})`, () => {
  const random = new Random(SEED);
  const docs = Array.from({ length: DOCUMENTS }, (_, i) => document(random, i));
  let table: ScratchTable;

  async function ids(where: string, params: SqlParams, order = 'id') {
    const { rows } = await table.client.query<{ id: string }>(
      `SELECT doc ->> '_id' AS id FROM text_docs AS r WHERE ${where} ORDER BY ${order}`,
      params.values,
    );
    return rows.map((row) => row.id);
  }

  beforeAll(async () => {
    table = await openScratchTable(openTestDatabase, 'text_docs', docs);
  });

  afterAll(() => table?.close());

  it(`selects what mingo selects for ${QUERIES} random queries on text fields`, async () => {
    const mismatches: string[] = [];
    let textForm = 0;
    let ran = 0;
    for (let i = 0; i < QUERIES; i++) {
      const query = filter(random);
      const params = new SqlParams();
      let sql: string;
      try {
        sql = compileFilter(query, 'r.doc', params, TEXT_FIELDS).sql;
      } catch (error) {
        // Refused as the general compiler refuses it ($gt against an object).
        if (error instanceof MarketplaceError) continue;
        throw error;
      }
      ran++;
      if (!sql.includes('jsonb')) textForm++;
      const actual = await ids(sql, params);
      const expected = mingoFind(query, docs).map((doc) => String(doc['_id']));
      if (actual.join() !== expected.join())
        mismatches.push(
          `${JSON.stringify(query)}: SQL ${actual.length}, mingo ${expected.length}`,
        );
    }
    expect(mismatches).toEqual([]);
    // The text form was what ran, not the general one it falls back to.
    expect(ran).toBeGreaterThan(QUERIES * 0.8);
    expect(textForm).toBeGreaterThan(ran * 0.9);
  });

  it('sorts text fields as mingo does, missing values first ascending', async () => {
    for (const field of FIELDS)
      for (const direction of [1, -1] as const) {
        const params = new SqlParams();
        const order = compileSort(
          { [field]: direction },
          'r.doc',
          params,
          TEXT_FIELDS,
        );
        expect(order).toContain('COLLATE "C"');
        const actual = await ids(
          'TRUE',
          params,
          `${order}, doc ->> '_id' COLLATE "C"`,
        );
        const expected = new Query({})
          .find<Doc>(docs)
          .sort({ [field]: direction, _id: 1 })
          .all()
          .map((doc) => String(doc['_id']));
        expect({ field, direction, ids: actual }).toEqual({
          field,
          direction,
          ids: expected,
        });
      }
  });

  it('agrees with the general compiler where mingo is not the oracle', async () => {
    for (const field of FIELDS)
      for (const op of ['$gt', '$gte', '$lt', '$lte']) {
        const query = { [field]: { [op]: null } };
        const text = new SqlParams();
        const general = new SqlParams();
        const textSql = compileFilter(query, 'r.doc', text, TEXT_FIELDS).sql;
        const generalSql = compileFilter(query, 'r.doc', general).sql;
        expect(textSql).not.toContain('jsonb');
        expect(await ids(textSql, text)).toEqual(
          await ids(generalSql, general),
        );
      }
  });

  it('leaves operators without a text form to the general compiler', () => {
    const params = new SqlParams();
    const sql = compileFilter(
      { id_producer: { $regex: '^p' } },
      'r.doc',
      params,
      TEXT_FIELDS,
    ).sql;
    expect(sql).toContain('jsonb_path_query');
    expect(sql).toContain('~');
  });
});
