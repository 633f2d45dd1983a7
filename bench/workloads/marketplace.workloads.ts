import { createHash, randomBytes } from 'node:crypto';

import { Pool } from 'pg';

import { hashPassword } from '@quitanda/kernel';

import { baseline, quitanda } from '../lib/targets';
import type { Target, Workload } from '../lib/types';
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
import {
  parseCreateAssortment,
  parseListProducts,
  parseLogin,
  parseProducerAssortment,
} from './parse-server.targets';

const APP_KEY = 'kid_benchMarket00001';
const APP_SECRET = 'bench-app-secret-0000000001';
const MASTER_SECRET = 'bench-master-secret-00000001';
const AUTH = `Basic ${Buffer.from(`${APP_KEY}:${APP_SECRET}`).toString('base64')}`;
/** A hash no password matches: bench users never log in. */
const NO_PASSWORD =
  '$argon2id$v=19$m=19456,t=2,p=1$bm9wYXNzd29yZA$bm9wYXNzd29yZG5vcGFzc3dvcmQ';

const ENV = {
  MARKETPLACE_APP_KEY: APP_KEY,
  MARKETPLACE_APP_SECRET: APP_SECRET,
  MARKETPLACE_MASTER_SECRET: MASTER_SECRET,
  MARKETPLACE_APP_NAME: 'Bench',
};

function digest(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

function objectId(): string {
  return randomBytes(12).toString('hex');
}

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)] as T;
}

/** Users of the bench app, all with the same password hash. */
async function insertUsers(
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

const seeded = new Map<string, Promise<string[]>>();

/**
 * One app, 500 producers, 50 public product images and products, and
 * 10,000 available-assortment records (20 per producer), once per database.
 * Returns the producers' ids.
 */
function seed(databaseUrl: string): Promise<string[]> {
  const existing = seeded.get(databaseUrl);
  if (existing) return existing;
  const work = (async () => {
    const pool = new Pool({ connectionString: databaseUrl, max: 2 });
    const now = new Date();
    const iso = now.toISOString();
    await pool.query(
      `INSERT INTO marketplace.apps (app_key, name, environment_name, app_secret_digest, master_secret_digest,
              app_credential_access, signing_key, created_at)
       VALUES ($1, 'Bench', 'Development', $2, $3, 'read-create', $4, $5)`,
      [
        APP_KEY,
        digest(APP_SECRET),
        digest(MASTER_SECRET),
        randomBytes(32).toString('base64url'),
        now,
      ],
    );
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
    await pool.end();
    return producers;
  })();
  seeded.set(databaseUrl, work);
  return work;
}

function targets(databaseUrl: string, parse: Target[]): Target[] {
  return [
    quitanda(databaseUrl, ENV),
    baseline('bare node:http + pg', 'marketplace-bare.js', databaseUrl),
    ...parse,
  ];
}

/** Contract: >= 0.5x bare and >= 3x Parse Server, p99 < 25 ms. */
const TARGET = {
  minRatio: 0.5,
  minRatioVs: { 'Parse Server': 3 },
  maxP99Ms: 25,
};

export function marketplaceListProducts(databaseUrl: string): Workload {
  return {
    name: 'marketplace: list 50 products with images',
    description:
      'GET /appdata/{appKey}/product?limit=50, images expanded with signed URLs',
    target: TARGET,
    targets: targets(databaseUrl, parseListProducts(databaseUrl)),
    prepare: (url) => seed(url),
    requests: () => ({
      requests: [
        {
          method: 'GET',
          path: `/appdata/${APP_KEY}/product?limit=50`,
          headers: { authorization: AUTH },
        },
      ],
    }),
  };
}

/**
 * A workload over the seeded app whose every request is built for a random
 * producer (`build` returns the path and, for writes, the body).
 */
function perProducer(
  databaseUrl: string,
  name: string,
  description: string,
  method: 'GET' | 'POST',
  build: (producer: string) => { path: string; body?: string },
  parse: Target[],
): Workload {
  return {
    name,
    description,
    target: TARGET,
    targets: targets(databaseUrl, parse),
    prepare: (url) => seed(url),
    requests: (_url, prepared) => {
      const producers = prepared as string[];
      return {
        requests: [
          {
            method,
            headers: {
              authorization: AUTH,
              'content-type': 'application/json',
            },
            setupRequest: (request) => ({
              ...request,
              ...build(pick(producers)),
            }),
          },
        ],
      };
    },
  };
}

export function marketplaceProducerAssortment(databaseUrl: string): Workload {
  return perProducer(
    databaseUrl,
    "marketplace: one producer's assortment among 10,000",
    `GET /appdata/{appKey}/availableAssortment?query={"id_producer":...}, ${ASSORTMENTS} records of ${PRODUCERS} producers`,
    'GET',
    (producer) => ({
      path: `/appdata/${APP_KEY}/availableAssortment?query=${encodeURIComponent(
        JSON.stringify({ id_producer: producer }),
      )}`,
    }),
    parseProducerAssortment(databaseUrl),
  );
}

const ITEMS = [
  { name: 'Tomate', measurement: 'kg', quantity: '10', price: '3,50' },
  { name: 'Alface', measurement: 'un', quantity: '20', price: '1,00' },
  { name: 'Cenoura', measurement: 'kg', quantity: '5', price: '2,75' },
];

export function marketplaceCreateAssortment(databaseUrl: string): Workload {
  return perProducer(
    databaseUrl,
    'marketplace: create an assortment',
    'POST /appdata/{appKey}/availableAssortment (app secret), three items',
    'POST',
    (producer) => ({
      path: `/appdata/${APP_KEY}/availableAssortment`,
      body: JSON.stringify({
        id_producer: producer,
        canceled: 'false',
        products: ITEMS,
      }),
    }),
    parseCreateAssortment(databaseUrl, ITEMS),
  );
}

/**
 * `POST /user/{appKey}/login`: bound by the password hash (argon2id at
 * OWASP's minimum, m=19 MiB t=2 p=1). Contract: at least Parse Server's rate
 * (bcrypt, cost 10). 8 connections: a latency figure, not a queue's.
 */
export function marketplaceLogin(databaseUrl: string): Workload {
  return {
    name: 'marketplace: login',
    description: `POST /user/{appKey}/login, ${LOGIN_USERS} users, argon2id`,
    target: { minRatioVs: { 'Parse Server': 1 } },
    connections: 8,
    targets: [quitanda(databaseUrl, ENV), ...parseLogin(databaseUrl)],
    async prepare(url) {
      await seed(url);
      const pool = new Pool({ connectionString: url, max: 2 });
      await insertUsers(
        pool,
        Array.from({ length: LOGIN_USERS }, (_, n) => ({
          id: objectId(),
          username: `buyer${n}@example.com`,
        })),
        await hashPassword(LOGIN_PASSWORD),
      );
      await pool.end();
      return undefined;
    },
    requests: () => ({
      requests: [
        {
          method: 'POST',
          path: `/user/${APP_KEY}/login`,
          headers: { authorization: AUTH, 'content-type': 'application/json' },
          setupRequest: (request) => ({
            ...request,
            body: benchLoginBody(),
          }),
        },
      ],
    }),
  };
}
