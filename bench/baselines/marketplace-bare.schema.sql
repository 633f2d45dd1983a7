-- The bare marketplace server's own data layout (bench/baselines/marketplace-bare.js):
-- a table per collection the benchmark calls, the queried fields as columns,
-- the one index each call needs, and documents as JSON text (`json`, never
-- looked into: answers copy them). Filled by the benchmark's seed from the
-- same data as Quitanda's (bench/workloads/marketplace.seed.ts).
CREATE SCHEMA IF NOT EXISTS bench_bare;

CREATE TABLE IF NOT EXISTS bench_bare.apps (
  app_key text PRIMARY KEY,
  app_secret_digest text NOT NULL,
  signing_key text NOT NULL
);

CREATE TABLE IF NOT EXISTS bench_bare.producers (
  app_key text NOT NULL,
  id text NOT NULL,
  PRIMARY KEY (app_key, id)
);

CREATE TABLE IF NOT EXISTS bench_bare.files (
  app_key text NOT NULL,
  id text NOT NULL,
  generation integer NOT NULL,
  doc json NOT NULL,
  PRIMARY KEY (app_key, id)
);

-- Listed in creation order: the primary key is that order. The image
-- reference is kept apart from the rest of the document (`doc`), which an
-- answer writes with the image file in its place.
CREATE TABLE IF NOT EXISTS bench_bare.products (
  app_key text NOT NULL,
  created_at timestamptz NOT NULL,
  id text NOT NULL,
  image_id text,
  image_type text,
  doc json NOT NULL,
  PRIMARY KEY (app_key, created_at, id)
);

-- Queried by producer, in creation order: the primary key is that order.
CREATE TABLE IF NOT EXISTS bench_bare.assortments (
  app_key text NOT NULL,
  id_producer text NOT NULL,
  created_at timestamptz NOT NULL,
  id text NOT NULL,
  doc json NOT NULL,
  PRIMARY KEY (app_key, id_producer, created_at, id)
);
