/**
 * `npm run bench -- --explain`: the plans of the queries the SDKs send most,
 * at 1,000,000 records, in the SQL shape Quitanda's query compiler emits for
 * conditions and sorts on the collections' text fields
 * (`libs/marketplace/src/lib/query/text-fields.ts`).
 */
import { Pool } from 'pg';

import {
  LARGE_PRODUCER_PREFIX,
  LARGE_PRODUCERS,
  largeId,
} from './marketplace.dataset';
import { LARGE_APP_KEY, seedLarge } from './marketplace.seed';

const PRODUCER = `((t.doc ->> 'id_producer') COLLATE "C")`;
const LMT = `((t.doc -> '_kmd' ->> 'lmt') COLLATE "C")`;
const NAME = `((t.doc ->> 'name') COLLATE "C")`;
const SELECT = 'SELECT t.doc FROM marketplace.records t';
const SCOPE = 't.app_key = $1 AND t.collection = $2';
const CREATION = 'ORDER BY t.created_at, t.id';

interface Explained {
  readonly title: string;
  readonly sql: string;
  readonly params: readonly unknown[];
}

async function queries(pool: Pool): Promise<Explained[]> {
  const producer = (n: number) => largeId(LARGE_PRODUCER_PREFIX, n);
  // The 100 most recently modified assortments.
  const { rows } = await pool.query<{ lmt: string }>(
    `SELECT doc -> '_kmd' ->> 'lmt' AS lmt FROM marketplace.records
      WHERE app_key = $1 AND collection = 'availableAssortment'
      ORDER BY created_at DESC, id DESC OFFSET 99 LIMIT 1`,
    [LARGE_APP_KEY],
  );
  const since = rows[0]?.lmt as string;
  return [
    {
      title: `one producer's assortment: query={"id_producer": "${producer(4242)}"}`,
      sql: `${SELECT} WHERE ${SCOPE} AND ((${PRODUCER} IS NOT NULL AND ${PRODUCER} = $3::text)) ${CREATION} LIMIT $4 OFFSET $5`,
      params: [LARGE_APP_KEY, 'availableAssortment', producer(4242), 10_000, 0],
    },
    {
      title: 'five producers: query={"id_producer": {"$in": [...5 ids]}}',
      sql: `${SELECT} WHERE ${SCOPE} AND ((${PRODUCER} IS NOT NULL AND ${PRODUCER} = ANY($3::text[]))) ${CREATION} LIMIT $4 OFFSET $5`,
      params: [
        LARGE_APP_KEY,
        'availableAssortment',
        [7, 1_001, 20_002, 33_003, LARGE_PRODUCERS - 1].map(producer),
        10_000,
        0,
      ],
    },
    {
      title: `a range: query={"_kmd.lmt": {"$gte": "${since}"}} (the last 100 changes)`,
      sql: `${SELECT} WHERE ${SCOPE} AND (${LMT} IS NOT NULL AND ${LMT} >= $3::text) ${CREATION} LIMIT $4 OFFSET $5`,
      params: [LARGE_APP_KEY, 'availableAssortment', since, 10_000, 0],
    },
    {
      title: 'the product list: product?limit=50 (creation order)',
      sql: `${SELECT} WHERE ${SCOPE} ${CREATION} LIMIT $3 OFFSET $4`,
      params: [LARGE_APP_KEY, 'product', 50, 0],
    },
    {
      title: 'a sort with a limit: product?sort={"name": 1}&limit=50',
      sql: `${SELECT} WHERE ${SCOPE} ORDER BY ${NAME} ASC NULLS FIRST, t.created_at, t.id LIMIT $3 OFFSET $4`,
      params: [LARGE_APP_KEY, 'product', 50, 0],
    },
  ];
}

/** Seeds the large app if needed and returns the plans as Markdown. */
export async function explainLargeQueries(
  databaseUrl: string,
): Promise<string> {
  await seedLarge(databaseUrl);
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const sections: string[] = [];
    for (const query of await queries(pool)) {
      // Once to warm the cache as the benchmark's steady state would.
      await pool.query(query.sql, [...query.params]);
      const { rows } = await pool.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, BUFFERS) ${query.sql}`,
        [...query.params],
      );
      sections.push(
        `### ${query.title}\n\n\`\`\`sql\n${query.sql}\n\`\`\`\n\n\`\`\`\n${rows.map((r) => r['QUERY PLAN']).join('\n')}\n\`\`\``,
      );
    }
    return sections.join('\n\n');
  } finally {
    await pool.end();
  }
}
