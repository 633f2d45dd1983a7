/**
 * The marketplace benchmark's data in the database, once per database:
 * Quitanda's tables first, then the bare server's own tables filled from
 * them (`INSERT ... SELECT`), so both answer from the same data.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { PRODUCE_DEFINITION } from '@quitanda/marketplace';
import { Pool } from 'pg';

import { onceFor } from '../lib/once';

import {
  ASSORTMENTS,
  LARGE_ASSORTMENTS,
  LARGE_PRODUCER_PREFIX,
  LARGE_PRODUCERS,
  LARGE_PRODUCTS,
  PRODUCERS,
  PRODUCTS,
  benchAssortmentItems,
  benchProduct,
  largeId,
  largeIdSql,
} from './marketplace.dataset';

export const APP_SECRET = 'bench-app-secret-0000000001';
export const MASTER_SECRET = 'bench-master-secret-00000001';
/** The 10,000-record app and the 1,000,000-record one: the same credentials. */
export const APP_KEY = 'kid_benchMarket00001';
export const LARGE_APP_KEY = 'kid_benchMarketLarge';
/** A hash no password matches: bench users never log in. */
const NO_PASSWORD =
  '$argon2id$v=19$m=19456,t=2,p=1$bm9wYXNzd29yZA$bm9wYXNzd29yZG5vcGFzc3dvcmQ';

const BARE_SCHEMA = join(__dirname, '../baselines/marketplace-bare.schema.sql');

function digest(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

function objectId(): string {
  return randomBytes(12).toString('hex');
}

async function withPool<T>(
  databaseUrl: string,
  work: (pool: Pool) => Promise<T>,
): Promise<T> {
  const pool = new Pool({ connectionString: databaseUrl, max: 2 });
  try {
    return await work(pool);
  } finally {
    await pool.end();
  }
}

async function insertApp(pool: Pool, appKey: string, now: Date) {
  await pool.query(
    `INSERT INTO marketplace.apps (app_key, name, environment_name, app_secret_digest, master_secret_digest,
            app_credential_access, signing_key, created_at)
     VALUES ($1, 'Bench', 'Development', $2, $3, 'read-create', $4, $5)`,
    [
      appKey,
      digest(APP_SECRET),
      digest(MASTER_SECRET),
      randomBytes(32).toString('base64url'),
      now,
    ],
  );
  // As the produce app is served: its shipped definition's collections.
  await pool.query(
    `INSERT INTO marketplace.collections (app_key, name, settings, created_at, updated_at)
     SELECT $1, d.key, d.value, $3, $3 FROM jsonb_each($2::jsonb) d`,
    [appKey, JSON.stringify(PRODUCE_DEFINITION), now],
  );
}

/** Users of the small bench app, all with the same password hash. */
export async function insertUsers(
  pool: Pool,
  users: ReadonlyArray<{ id: string; username: string; name?: string }>,
  passwordHash: string,
): Promise<void> {
  const iso = new Date().toISOString();
  const docs = users.map(({ id, username, name }) => ({
    _id: id,
    username,
    ...(name === undefined ? {} : { name }),
    verifieduser: false,
    _acl: { creator: id },
    _kmd: { ect: iso, lmt: iso },
  }));
  await pool.query(
    `INSERT INTO marketplace.users (app_key, id, username, doc, password_hash, created_at, updated_at)
     SELECT $1, u->>'_id', u->>'username', u, $3, $4, $4 FROM jsonb_array_elements($2::jsonb) AS u`,
    [APP_KEY, JSON.stringify(docs), passwordHash, iso],
  );
}

/**
 * The bare server's tables (its own schema, see
 * `bench/baselines/marketplace-bare.schema.sql`) filled with one app's data
 * from Quitanda's, then analysed.
 */
async function fillBare(pool: Pool, appKey: string): Promise<void> {
  await pool.query(readFileSync(BARE_SCHEMA, 'utf8'));
  for (const sql of [
    `INSERT INTO bench_bare.apps (app_key, app_secret_digest, signing_key)
     SELECT app_key, app_secret_digest, signing_key FROM marketplace.apps WHERE app_key = $1`,
    `INSERT INTO bench_bare.producers (app_key, id)
     SELECT app_key, id FROM marketplace.users WHERE app_key = $1`,
    `INSERT INTO bench_bare.files (app_key, id, generation, doc)
     SELECT app_key, id, generation, doc FROM marketplace.files WHERE app_key = $1`,
    `INSERT INTO bench_bare.products (app_key, created_at, id, image_id, image_type, doc)
     SELECT app_key, created_at, id, doc -> 'image' ->> '_id', doc -> 'image' ->> '_type', doc - 'image'
       FROM marketplace.records WHERE app_key = $1 AND collection = 'product'`,
    `INSERT INTO bench_bare.assortments (app_key, id_producer, created_at, id, doc)
     SELECT app_key, doc ->> 'id_producer', created_at, id, doc
       FROM marketplace.records WHERE app_key = $1 AND collection = 'availableAssortment'`,
  ])
    await pool.query(sql, [appKey]);
  await pool.query(
    'VACUUM ANALYZE bench_bare.apps, bench_bare.producers, bench_bare.files, bench_bare.products, bench_bare.assortments',
  );
}

/**
 * Runs a bulk load into `table` as `pg_restore` would: its indexes that back
 * no constraint dropped first and built again afterwards from their own
 * definitions (two at a time, GIN beside the B-trees), which takes a
 * fraction of the time of maintaining them row by row.
 */
async function bulkLoad(
  pool: Pool,
  table: string,
  load: () => Promise<void>,
): Promise<void> {
  const { rows } = await pool.query<{ name: string; definition: string }>(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i
       JOIN pg_class c ON c.oid = i.indexrelid
       JOIN pg_am a ON a.oid = c.relam
      WHERE i.indrelid = $1::regclass
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
      ORDER BY a.amname <> 'gin', c.relname`,
    [table],
  );
  for (const { name } of rows) await pool.query(`DROP INDEX ${name}`);
  await load();
  const queue = [...rows];
  const builder = async () => {
    const client = await pool.connect();
    try {
      await client.query(`SET maintenance_work_mem = '256MB'`);
      for (let next = queue.shift(); next; next = queue.shift())
        await client.query(next.definition);
    } finally {
      client.release();
    }
  };
  await Promise.all([builder(), builder()]);
}

const seeded = new Map<string, Promise<string[]>>();

const once = (key: string, work: () => Promise<string[]>) =>
  onceFor(seeded, key, work);

/**
 * One app, 500 producers, 50 public product images and products, and
 * 10,000 available-assortment records (20 per producer), once per database.
 * Returns the producers' ids.
 */
export function seedSmall(databaseUrl: string): Promise<string[]> {
  return once(`${databaseUrl}#small`, () =>
    withPool(databaseUrl, async (pool) => {
      const now = new Date();
      const iso = now.toISOString();
      await insertApp(pool, APP_KEY, now);
      const producers = Array.from({ length: PRODUCERS }, objectId);
      await insertUsers(
        pool,
        producers.map((id, n) => ({
          id,
          username: `producer${n}@example.com`,
          name: `Producer ${n}`,
        })),
        NO_PASSWORD,
      );
      const files = Array.from({ length: PRODUCTS }, (_, n) => ({
        _id: objectId(),
        _filename: benchProduct(n).image,
        mimeType: 'image/png',
        size: 4,
        _public: true,
        _acl: { creator: APP_KEY, gr: true },
        _kmd: { ect: iso, lmt: iso },
      }));
      await pool.query(
        `INSERT INTO marketplace.files (app_key, id, doc, creator, size, stored_bytes, generation, created_at, updated_at)
         SELECT $1, f->>'_id', f, $1, 4, 4, 1, $3, $3 FROM jsonb_array_elements($2::jsonb) AS f`,
        [APP_KEY, JSON.stringify(files), now],
      );
      const products = files.map((file, n) => ({
        _id: objectId(),
        name: benchProduct(n).name,
        measurement: benchProduct(n).measurement,
        image: { _type: 'KinveyFile', _id: file._id },
        _acl: { creator: APP_KEY },
        _kmd: { ect: iso, lmt: iso },
      }));
      const assortments = Array.from({ length: ASSORTMENTS }, (_, n) => ({
        _id: objectId(),
        id_producer: producers[n % PRODUCERS],
        canceled: 'false',
        products: benchAssortmentItems(n),
        _acl: { creator: APP_KEY },
        _kmd: { ect: iso, lmt: iso },
      }));
      for (const [collection, docs] of [
        ['product', products],
        ['availableAssortment', assortments],
      ] as const)
        await pool.query(
          `INSERT INTO marketplace.records (app_key, collection, id, doc, creator, unique_name, created_at, updated_at)
           SELECT $1, $2, d->>'_id', d, $1, CASE WHEN $2 = 'product' THEN lower(btrim(d->>'name')) END, $4, $4
             FROM jsonb_array_elements($3::jsonb) AS d`,
          [APP_KEY, collection, JSON.stringify(docs), now],
        );
      // As autovacuum would: GIN's pending list merged, statistics fresh.
      await pool.query('VACUUM ANALYZE marketplace.records');
      await fillBare(pool, APP_KEY);
      return producers;
    }),
  );
}

/** `at` (a timestamptz expression) as Kinvey's `_kmd` writes it. */
const KMD_TIME = (at: string) =>
  `to_char(${at} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** `creator`'s `_acl` and a `_kmd` at `iso`, as SQL. */
const META = (creator: string, iso: string) =>
  `'_acl', jsonb_build_object('creator', ${creator}), '_kmd', jsonb_build_object('ect', ${iso}, 'lmt', ${iso})`;

/**
 * The large app (`LARGE_APP_KEY`): 50,000 producers, 50 images, 1,000,000
 * products (the first 50 in creation order with an image) and 1,000,000
 * available assortments (20 per producer, spread over the table), written
 * by `generate_series` in a few statements, each record a millisecond
 * apart so `_kmd.lmt` ranges select few of them. Returns the producers' ids.
 */
export function seedLarge(databaseUrl: string): Promise<string[]> {
  return once(`${databaseUrl}#large`, () =>
    withPool(databaseUrl, async (pool) => {
      const started = Date.now();
      const now = new Date();
      const iso = now.toISOString();
      // Records in the past, one per millisecond.
      const first = new Date(now.getTime() - 2 * LARGE_PRODUCTS);
      await insertApp(pool, LARGE_APP_KEY, now);
      const producerId = (n: string) => largeIdSql(LARGE_PRODUCER_PREFIX, n);
      await pool.query(
        `INSERT INTO marketplace.users (app_key, id, username, doc, password_hash, created_at, updated_at)
         SELECT $1, u.id, u.username,
                jsonb_build_object('_id', u.id, 'username', u.username, 'name', 'Producer ' || n,
                                   'verifieduser', false, ${META('u.id', '$3::text')}),
                $2, $4, $4
           FROM generate_series(0, $5 - 1) AS n,
                LATERAL (SELECT ${producerId('n')} AS id, 'producer' || n || '@example.com' AS username) u`,
        [LARGE_APP_KEY, NO_PASSWORD, iso, now, LARGE_PRODUCERS],
      );
      await pool.query(
        `INSERT INTO marketplace.files (app_key, id, doc, creator, size, stored_bytes, generation, created_at, updated_at)
         SELECT $1, f.id,
                jsonb_build_object('_id', f.id, '_filename', 'product-' || n || '.png', 'mimeType', 'image/png',
                                   'size', 4, '_public', true,
                                   '_acl', jsonb_build_object('creator', $1::text, 'gr', true),
                                   '_kmd', jsonb_build_object('ect', $2::text, 'lmt', $2::text)),
                $1, 4, 4, 1, $3, $3
           FROM generate_series(0, $4 - 1) AS n, LATERAL (SELECT ${largeIdSql('f11e', 'n')} AS id) f`,
        [LARGE_APP_KEY, iso, now, PRODUCTS],
      );
      await bulkLoad(pool, 'marketplace.records', async () => {
        await pool.query(
          `INSERT INTO marketplace.records (app_key, collection, id, doc, creator, unique_name, created_at, updated_at)
         SELECT $1, 'product', r.id,
                jsonb_build_object('_id', r.id, 'name', 'Product ' || n,
                                   'measurement', CASE WHEN n % 2 = 1 THEN 'kg' ELSE 'un' END,
                                   ${META('$1::text', 't.iso')})
                  || CASE WHEN n < $3 THEN jsonb_build_object('image', jsonb_build_object(
                       '_type', 'KinveyFile', '_id', ${largeIdSql('f11e', 'n')})) ELSE '{}'::jsonb END,
                $1, 'product ' || n, r.at, r.at
           FROM generate_series(0, $2 - 1) AS n,
                LATERAL (SELECT ${largeIdSql('9d0c', 'n')} AS id, $4::timestamptz + n * interval '1 millisecond' AS at) r,
                LATERAL (SELECT ${KMD_TIME('r.at')} AS iso) t`,
          [LARGE_APP_KEY, LARGE_PRODUCTS, PRODUCTS, first],
        );
        const item = (k: number) =>
          `jsonb_build_object('name', 'Product ' || ((n + ${k}) % ${PRODUCTS}), 'measurement', 'kg',
                            'quantity', (1 + n % 9)::text, 'price', (1 + n % 7) || '.50')`;
        await pool.query(
          `INSERT INTO marketplace.records (app_key, collection, id, doc, creator, unique_name, created_at, updated_at)
         SELECT $1, 'availableAssortment', r.id,
                jsonb_build_object('_id', r.id, 'id_producer', ${producerId('n % $3')}, 'canceled', 'false',
                                   'products', jsonb_build_array(${item(0)}, ${item(1)}, ${item(2)}),
                                   ${META('$1::text', 't.iso')}),
                $1, NULL, r.at, r.at
           FROM generate_series(0, $2 - 1) AS n,
                LATERAL (SELECT ${largeIdSql('a55e', 'n')} AS id, $4::timestamptz + n * interval '1 millisecond' AS at) r,
                LATERAL (SELECT ${KMD_TIME('r.at')} AS iso) t`,
          [LARGE_APP_KEY, LARGE_ASSORTMENTS, LARGE_PRODUCERS, first],
        );
      });
      await pool.query('VACUUM ANALYZE marketplace.records, marketplace.users');
      await fillBare(pool, LARGE_APP_KEY);
      console.log(
        `  seeded ${LARGE_ASSORTMENTS.toLocaleString('en')} assortments and ${LARGE_PRODUCTS.toLocaleString('en')} products by SQL in ${Math.round((Date.now() - started) / 1000)} s`,
      );
      return Array.from({ length: LARGE_PRODUCERS }, (_, n) =>
        largeId(LARGE_PRODUCER_PREFIX, n),
      );
    }),
  );
}
