/**
 * Parse Server doing the marketplace workloads through its own REST API on
 * the benchmark's PostgreSQL (the contract asks for at least 1.2x its rate).
 * Only when PARSE_SERVER_DIR points at an install of parse-server (the
 * runner installs one unless told `--no-parse`, see
 * `bench/lib/parse-server-install.ts`); its classes live in the benchmark
 * database's `public` schema, beside Quitanda's schemas: `Product` and
 * `AvailableAssortment` for the small data set, `ProductLarge` and
 * `AvailableAssortmentLarge` for the large one.
 */
import { join } from 'node:path';

import type { Options as AutocannonOptions } from 'autocannon';
import { Pool } from 'pg';

import { onceFor } from '../lib/once';

import type { Target } from '../lib/types';
import {
  ASSORTMENTS,
  LARGE_ASSORTMENTS,
  LARGE_PRODUCER_PREFIX,
  LARGE_PRODUCERS,
  LARGE_PRODUCTS,
  LOGIN_PASSWORD,
  LOGIN_USERS,
  PRODUCERS,
  PRODUCTS,
  benchAssortmentItems,
  benchLoginBody,
  benchProduct,
  largeId,
  largeIdSql,
} from './marketplace.dataset';

const ROOT = join(__dirname, '../..');
const APP_ID = 'quitanda-bench';
const REST_KEY = 'bench-rest-key-0000000000000001';
const MASTER_KEY = 'bench-master-key-000000000000001';

type Request = NonNullable<AutocannonOptions['requests']>[number];

function headers(master = false): Record<string, string> {
  return {
    'x-parse-application-id': APP_ID,
    'content-type': 'application/json',
    ...(master
      ? { 'x-parse-master-key': MASTER_KEY }
      : { 'x-parse-rest-api-key': REST_KEY }),
  };
}

async function call(
  url: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const response = await fetch(`${url}/parse${path}`, {
    method,
    headers: headers(true),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok)
    throw new Error(`Parse ${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text);
}

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)] as T;
}

const seeded = new Map<string, Promise<string[]>>();

const once = (key: string, work: () => Promise<string[]>) =>
  onceFor(seeded, key, work);

const product = (n: number) => ({
  ...benchProduct(n),
  image: { __type: 'File', name: benchProduct(n).image },
});

/**
 * Creates the two classes through the API (Parse makes their tables and
 * schema), fills them with SQL in the same shape (its /batch endpoint fails
 * in parse-server 9.10 with the router it installs), and declares the index
 * on `id_producer` as its operators would.
 */
async function fillClasses(
  url: string,
  databaseUrl: string,
  classes: ParseClasses,
  first: { product: object; assortment: object },
  fill: (pool: Pool) => Promise<void>,
): Promise<void> {
  await call(url, 'POST', `/classes/${classes.product}`, first.product);
  await call(url, 'POST', `/classes/${classes.assortment}`, first.assortment);
  // Parse names the index after its key, one name space per schema: each
  // class needs its own name, and Parse says nothing when the name is taken.
  const index = `${classes.assortment.toLowerCase()}_id_producer`;
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  try {
    await fill(pool);
    await pool.query(
      `VACUUM ANALYZE "${classes.product}", "${classes.assortment}"`,
    );
    await call(url, 'PUT', `/schemas/${classes.assortment}`, {
      className: classes.assortment,
      indexes: { [index]: { id_producer: 1 } },
    });
    const { rowCount } = await pool.query(
      `SELECT 1 FROM pg_indexes WHERE tablename = $1 AND indexname = $2`,
      [classes.assortment, index],
    );
    if (rowCount !== 1)
      throw new Error(`Parse Server did not create the index ${index}`);
  } finally {
    await pool.end();
  }
}

/**
 * The same data as Quitanda's small seed: 50 products with image files,
 * 10,000 available assortments of 500 producers, and users for the login
 * workload. Once per database: later runs find it there. Returns the
 * producer ids.
 */
function seedSmall(url: string, databaseUrl: string): Promise<string[]> {
  return once(`${databaseUrl}#small`, async () => {
    const producers = Array.from(
      { length: PRODUCERS },
      (_, n) => `producer${String(n).padStart(4, '0')}`,
    );
    const assortment = (n: number) => ({
      id_producer: producers[n % PRODUCERS],
      canceled: 'false',
      products: benchAssortmentItems(n),
    });
    const rows = (count: number, make: (n: number) => object) =>
      JSON.stringify(Array.from({ length: count - 1 }, (_, n) => make(n + 1)));
    await fillClasses(
      url,
      databaseUrl,
      SMALL_CLASSES,
      { product: product(0), assortment: assortment(0) },
      async (pool) => {
        await pool.query(
          `INSERT INTO "Product" ("objectId", "createdAt", "updatedAt", name, measurement, image)
           SELECT substr(md5(random()::text), 1, 10), now(), now(), p->>'name', p->>'measurement', p->'image'->>'name'
             FROM jsonb_array_elements($1::jsonb) AS p`,
          [rows(PRODUCTS, product)],
        );
        await pool.query(
          `INSERT INTO "AvailableAssortment" ("objectId", "createdAt", "updatedAt", id_producer, canceled, products)
           SELECT substr(md5(random()::text), 1, 10), now(), now(), a->>'id_producer', a->>'canceled', a->'products'
             FROM jsonb_array_elements($1::jsonb) AS a`,
          [rows(ASSORTMENTS, assortment)],
        );
      },
    );
    for (let n = 0; n < LOGIN_USERS; n++)
      await call(url, 'POST', '/users', {
        username: `buyer${n}@example.com`,
        password: LOGIN_PASSWORD,
      });
    return producers;
  });
}

/**
 * The same data as Quitanda's large seed, in classes of their own: 1,000,000
 * products with images and 1,000,000 available assortments of the same
 * 50,000 producers, written by `generate_series`. Returns the producer ids.
 */
function seedLarge(url: string, databaseUrl: string): Promise<string[]> {
  return once(`${databaseUrl}#large`, async () => {
    const producer = (n: number) => largeId(LARGE_PRODUCER_PREFIX, n);
    const item = (k: number) =>
      `jsonb_build_object('name', 'Product ' || ((n + ${k}) % ${PRODUCTS}), 'measurement', 'kg',
                          'quantity', (1 + n % 9)::text, 'price', (1 + n % 7) || '.50')`;
    await fillClasses(
      url,
      databaseUrl,
      LARGE_CLASSES,
      {
        product: product(0),
        assortment: {
          id_producer: producer(0),
          canceled: 'false',
          products: benchAssortmentItems(0),
        },
      },
      async (pool) => {
        await pool.query(
          `INSERT INTO "${LARGE_CLASSES.product}" ("objectId", "createdAt", "updatedAt", name, measurement, image)
           SELECT 'p' || lpad(to_hex(n), 9, '0'), now(), now(), 'Product ' || n,
                  CASE WHEN n % 2 = 1 THEN 'kg' ELSE 'un' END, 'product-' || (n % ${PRODUCTS}) || '.png'
             FROM generate_series(1, $1 - 1) AS n`,
          [LARGE_PRODUCTS],
        );
        await pool.query(
          `INSERT INTO "${LARGE_CLASSES.assortment}" ("objectId", "createdAt", "updatedAt", id_producer, canceled, products)
           SELECT 'a' || lpad(to_hex(n), 9, '0'), now(), now(), ${largeIdSql(LARGE_PRODUCER_PREFIX, 'n % $2')}, 'false',
                  jsonb_build_array(${item(0)}, ${item(1)}, ${item(2)})
             FROM generate_series(1, $1 - 1) AS n`,
          [LARGE_ASSORTMENTS, LARGE_PRODUCERS],
        );
      },
    );
    return Array.from({ length: LARGE_PRODUCERS }, (_, n) => producer(n));
  });
}

/** Parse classes holding one data set, and how to seed them. */
export interface ParseClasses {
  readonly product: string;
  readonly assortment: string;
}

export const SMALL_CLASSES: ParseClasses = {
  product: 'Product',
  assortment: 'AvailableAssortment',
};
export const LARGE_CLASSES: ParseClasses = {
  product: 'ProductLarge',
  assortment: 'AvailableAssortmentLarge',
};

const seedOf = (classes: ParseClasses) =>
  classes === LARGE_CLASSES ? seedLarge : seedSmall;

function parseTarget(
  databaseUrl: string,
  classes: ParseClasses,
  build: (producers: string[]) => Request,
): Target {
  return {
    name: 'Parse Server',
    command: (port) => ({
      file: process.execPath,
      args: [join(ROOT, 'bench/baselines/parse-server.js')],
      env: {
        DATABASE_URL: databaseUrl,
        PORT: String(port),
        PARSE_SERVER_DIR: process.env['PARSE_SERVER_DIR'] ?? '',
        PARSE_APP_ID: APP_ID,
        PARSE_REST_KEY: REST_KEY,
        PARSE_MASTER_KEY: MASTER_KEY,
      },
    }),
    prepare: (url) => seedOf(classes)(url, databaseUrl),
    requests: (_url, prepared) => ({
      requests: [build(prepared as string[])],
    }),
  };
}

/** Parse Server targets only when an install is available. */
function available(make: () => Target): Target[] {
  return process.env['PARSE_SERVER_DIR'] ? [make()] : [];
}

export function parseListProducts(
  databaseUrl: string,
  classes: ParseClasses,
): Target[] {
  return available(() =>
    parseTarget(databaseUrl, classes, () => ({
      method: 'GET',
      path: `/parse/classes/${classes.product}?limit=50`,
      headers: headers(),
    })),
  );
}

export function parseProducerAssortment(
  databaseUrl: string,
  classes: ParseClasses,
): Target[] {
  return available(() =>
    parseTarget(databaseUrl, classes, (producers) => ({
      method: 'GET',
      headers: headers(),
      setupRequest: (request) => ({
        ...request,
        path: `/parse/classes/${classes.assortment}?where=${encodeURIComponent(
          JSON.stringify({ id_producer: pick(producers) }),
        )}`,
      }),
    })),
  );
}

export function parseCreateAssortment(
  databaseUrl: string,
  classes: ParseClasses,
  items: readonly object[],
): Target[] {
  return available(() =>
    parseTarget(databaseUrl, classes, (producers) => ({
      method: 'POST',
      path: `/parse/classes/${classes.assortment}`,
      headers: headers(),
      setupRequest: (request) => ({
        ...request,
        body: JSON.stringify({
          id_producer: pick(producers),
          canceled: 'false',
          products: items,
        }),
      }),
    })),
  );
}

export function parseLogin(databaseUrl: string): Target[] {
  return available(() =>
    parseTarget(databaseUrl, SMALL_CLASSES, () => ({
      method: 'POST',
      path: '/parse/login',
      headers: { ...headers(), 'x-parse-revocable-session': '1' },
      setupRequest: (request) => ({
        ...request,
        body: benchLoginBody(),
      }),
    })),
  );
}
