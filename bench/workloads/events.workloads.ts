import { Pool } from 'pg';
import { v7 as uuidv7 } from 'uuid';

import { baseline, quitanda } from '../lib/targets';
import type { Workload } from '../lib/types';

const EVENT_COUNT = 1_000;
const LARGE_EVENT_COUNT = 1_000_000;
/** Ids the large workload asks for: a sample spread over the whole table. */
const LARGE_SAMPLE = 100_000;

/*
 * Contract: at least 0.8x Express 5 alone doing the same SQL (how much the
 * prescribed platform, NestJS on platform-express, takes before any of
 * Quitanda's code runs), reported beside the bare server. The bare servers
 * share Quitanda's SQL here because it is already the least work: a
 * primary-key lookup and a single-row insert.
 */
const TARGET = {
  minRatioVs: { 'Express 5 + pg, no Nest': 0.8 },
};

function targets(databaseUrl: string) {
  return [
    quitanda(databaseUrl),
    baseline('bare node:http + pg', 'events-bare.js', databaseUrl),
    baseline('Express 5 + pg, no Nest', 'events-express.js', databaseUrl),
  ];
}

function getRequests(ids: readonly string[]) {
  return {
    requests: [
      {
        method: 'GET' as const,
        setupRequest: (request: object) => ({
          ...request,
          path: `/events/${pick(ids)}`,
        }),
      },
    ],
  };
}

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)] as T;
}

/** `GET /events/:id` over 1,000 records. */
export function eventsGet(databaseUrl: string): Workload {
  return {
    name: 'events: get',
    description: `GET /events/:id, random ids among ${EVENT_COUNT}`,
    target: TARGET,
    targets: targets(databaseUrl),
    async prepare(url) {
      const pool = new Pool({ connectionString: url, max: 2 });
      const ids = Array.from({ length: EVENT_COUNT }, () => uuidv7());
      const now = new Date();
      await pool.query(
        `INSERT INTO events.events (id, title, description, version, created_at, updated_at)
         SELECT id, 'Bench event ' || n, 'Seeded for the read benchmark', 1, $2, $2
           FROM unnest($1::uuid[]) WITH ORDINALITY AS t(id, n)`,
        [ids, now],
      );
      await pool.end();
      return ids;
    },
    requests: (_url, prepared) => getRequests(prepared as string[]),
  };
}

/**
 * `GET /events/:id` with 1,000,000 more records, written by
 * `generate_series` (time-ordered version 7 ids, as the API makes them):
 * within 20% of the small table's figure.
 */
export function eventsGetLarge(databaseUrl: string): Workload {
  return {
    name: 'events: get, 1,000,000 records',
    description: `GET /events/:id, random ids among ${LARGE_SAMPLE} spread over ${LARGE_EVENT_COUNT + EVENT_COUNT}`,
    target: TARGET,
    reference: { workload: 'events: get', minRatio: 0.8 },
    targets: targets(databaseUrl),
    async prepare(url) {
      const pool = new Pool({ connectionString: url, max: 1 });
      try {
        const started = Date.now();
        // UUID v7: 48 bits of Unix milliseconds, version 7, variant 10.
        await pool.query(
          `INSERT INTO events.events (id, title, description, version, created_at, updated_at)
           SELECT (lpad(to_hex(ms), 12, '0') || '7' || substr(h, 1, 3) || '8' || substr(h, 4, 15))::uuid,
                  'Bench event ' || n, 'Seeded for the read benchmark', 1, at, at
             FROM generate_series(1, $1) AS n,
                  LATERAL (SELECT now() - ($1 - n) * interval '1 millisecond' AS at) t,
                  LATERAL (SELECT (extract(epoch FROM t.at) * 1000)::bigint AS ms, md5(n::text) AS h) v`,
          [LARGE_EVENT_COUNT],
        );
        await pool.query('VACUUM ANALYZE events.events');
        console.log(
          `  seeded ${LARGE_EVENT_COUNT.toLocaleString('en')} events by SQL in ${Math.round((Date.now() - started) / 1000)} s`,
        );
        const { rows } = await pool.query<{ id: string }>(
          'SELECT id FROM events.events TABLESAMPLE BERNOULLI ($1) REPEATABLE (1)',
          [(100 * LARGE_SAMPLE) / (LARGE_EVENT_COUNT + EVENT_COUNT)],
        );
        return rows.map((r) => r.id);
      } finally {
        await pool.end();
      }
    },
    requests: (_url, prepared) => getRequests(prepared as string[]),
  };
}

/** `POST /events`. */
export function eventsCreate(databaseUrl: string): Workload {
  return {
    name: 'events: create',
    description: 'POST /events with a title and a description',
    target: TARGET,
    targets: targets(databaseUrl),
    prepare: async () => undefined,
    requests() {
      return {
        requests: [
          {
            method: 'POST',
            path: '/events',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              title: 'Bench event',
              description: 'Created by the benchmark',
            }),
          },
        ],
      };
    },
  };
}
