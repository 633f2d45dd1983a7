import { Pool } from 'pg';
import { v7 as uuidv7 } from 'uuid';

import { baseline, quitanda } from '../lib/targets';
import type { Workload } from '../lib/types';

const EVENT_COUNT = 1_000;

/*
 * The contract measures against the bare server. The Express baseline shows
 * how much of the gap the platform the issue prescribes (NestJS on
 * platform-express) takes before any of Quitanda's code runs.
 */

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)] as T;
}

/** `GET /events/:id` over 1,000 records (contract: >= 0.6x bare, p99 < 20 ms). */
export function eventsGet(databaseUrl: string): Workload {
  return {
    name: 'events: get',
    description: `GET /events/:id, random ids among ${EVENT_COUNT}`,
    target: { minRatio: 0.6, maxP99Ms: 20 },
    targets: [
      quitanda(databaseUrl),
      baseline('bare node:http + pg', 'events-bare.js', databaseUrl),
      baseline('Express 5 + pg, no Nest', 'events-express.js', databaseUrl),
    ],
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
    requests(_url, prepared) {
      const ids = prepared as string[];
      return {
        requests: [
          {
            method: 'GET',
            setupRequest: (request) => ({
              ...request,
              path: `/events/${pick(ids)}`,
            }),
          },
        ],
      };
    },
  };
}

/** `POST /events` (contract: >= 0.6x bare, p99 < 20 ms). */
export function eventsCreate(databaseUrl: string): Workload {
  return {
    name: 'events: create',
    description: 'POST /events with a title and a description',
    target: { minRatio: 0.6, maxP99Ms: 20 },
    targets: [
      quitanda(databaseUrl),
      baseline('bare node:http + pg', 'events-bare.js', databaseUrl),
      baseline('Express 5 + pg, no Nest', 'events-express.js', databaseUrl),
    ],
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
