/**
 * Parse Server doing the marketplace workloads through its own REST API on
 * the benchmark's PostgreSQL (the contract asks for at least 3x its rate).
 * Only when PARSE_SERVER_DIR points at an install of parse-server (see
 * `bench/baselines/parse-server.js`); its classes live in the benchmark
 * database's `public` schema, beside Quitanda's schemas.
 */
import { join } from 'node:path';

import type { Options as AutocannonOptions } from 'autocannon';
import { Pool } from 'pg';

import type { Target } from '../lib/types';
import {
  ASSORTMENTS,
  LOGIN_PASSWORD,
  LOGIN_USERS,
  PRODUCERS,
  PRODUCTS,
  benchAssortmentItems,
  benchLoginBody,
  benchProduct,
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

/**
 * The same data as Quitanda's seed: 50 products with image files, 10,000
 * available assortments of 500 producers with an index on `id_producer`,
 * and users for the login workload. Once per database: later runs find it
 * there. Returns the producer ids.
 */
function seed(url: string, databaseUrl: string): Promise<string[]> {
  const existing = seeded.get(databaseUrl);
  if (existing) return existing;
  const work = (async () => {
    const producers = Array.from(
      { length: PRODUCERS },
      (_, n) => `producer${String(n).padStart(4, '0')}`,
    );
    // One object of each class through the API lets Parse create its
    // tables and schema; the rest goes in with SQL, in the same shape (its
    // /batch endpoint fails in parse-server 9.10 with the router it installs).
    const product = (n: number) => ({
      ...benchProduct(n),
      image: { __type: 'File', name: benchProduct(n).image },
    });
    const assortment = (n: number) => ({
      id_producer: producers[n % PRODUCERS],
      canceled: 'false',
      products: benchAssortmentItems(n),
    });
    await call(url, 'POST', '/classes/Product', product(0));
    await call(url, 'POST', '/classes/AvailableAssortment', assortment(0));
    const pool = new Pool({ connectionString: databaseUrl, max: 1 });
    const rows = (count: number, make: (n: number) => object) =>
      JSON.stringify(Array.from({ length: count - 1 }, (_, n) => make(n + 1)));
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
    await pool.query('VACUUM ANALYZE "AvailableAssortment"');
    await pool.end();
    await call(url, 'PUT', '/schemas/AvailableAssortment', {
      className: 'AvailableAssortment',
      indexes: { id_producer: { id_producer: 1 } },
    });
    for (let n = 0; n < LOGIN_USERS; n++)
      await call(url, 'POST', '/users', {
        username: `buyer${n}@example.com`,
        password: LOGIN_PASSWORD,
      });
    return producers;
  })();
  seeded.set(databaseUrl, work);
  return work;
}

function parseTarget(
  databaseUrl: string,
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
    prepare: (url) => seed(url, databaseUrl),
    requests: (_url, prepared) => ({
      requests: [build(prepared as string[])],
    }),
  };
}

/** Parse Server targets only when an install is available. */
function available(make: () => Target): Target[] {
  return process.env['PARSE_SERVER_DIR'] ? [make()] : [];
}

export function parseListProducts(databaseUrl: string): Target[] {
  return available(() =>
    parseTarget(databaseUrl, () => ({
      method: 'GET',
      path: `/parse/classes/Product?limit=50`,
      headers: headers(),
    })),
  );
}

export function parseProducerAssortment(databaseUrl: string): Target[] {
  return available(() =>
    parseTarget(databaseUrl, (producers) => ({
      method: 'GET',
      headers: headers(),
      setupRequest: (request) => ({
        ...request,
        path: `/parse/classes/AvailableAssortment?where=${encodeURIComponent(
          JSON.stringify({ id_producer: pick(producers) }),
        )}`,
      }),
    })),
  );
}

export function parseCreateAssortment(
  databaseUrl: string,
  items: readonly object[],
): Target[] {
  return available(() =>
    parseTarget(databaseUrl, (producers) => ({
      method: 'POST',
      path: '/parse/classes/AvailableAssortment',
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
    parseTarget(databaseUrl, () => ({
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
