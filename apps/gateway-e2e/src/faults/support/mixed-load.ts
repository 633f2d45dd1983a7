import { randomBytes } from 'node:crypto';

import { seededRandom } from '@quitanda/testing';

import type { PrivatePostgres } from './private-postgres';
import {
  APP_KEY,
  collectorUrl,
  MASTER_AUTH,
  ROOT_TOKEN,
  send,
  WRITE_TOKEN,
} from './scenario';

export type WriteKind = 'event' | 'product' | 'issue' | 'sentry';
const KINDS: readonly WriteKind[] = ['event', 'product', 'issue', 'sentry'];

export interface Project {
  readonly id: number;
  readonly publicKey: string;
}

/** Writes of every context, each carrying a unique marker to find it by. */
export class MixedLoad {
  /** Markers of the writes that got a success response. */
  readonly acknowledged = new Map<string, WriteKind>();
  /** Every marker tried (a failed write may or may not have landed: at most once). */
  readonly attempted = new Map<string, WriteKind>();
  requests = 0;
  private counter = 0;
  private readonly next: () => number;
  private readonly prefix: string;

  constructor(
    private readonly project: Project,
    seed: number,
  ) {
    this.next = seededRandom(seed);
    this.prefix = `m${seed}x${randomBytes(3).toString('hex')}`;
  }

  /** Runs `workers` loops against `target()` (which may change) until `done()`. */
  run(workers: number, target: () => string, done: () => boolean) {
    return Promise.all(
      Array.from({ length: workers }, async () => {
        while (!done()) await this.writeOnce(target());
      }),
    );
  }

  private async writeOnce(url: string): Promise<void> {
    const kind = KINDS[Math.floor(this.next() * KINDS.length)] as WriteKind;
    this.counter += 1;
    const marker =
      kind === 'sentry'
        ? randomBytes(16).toString('hex')
        : `${this.prefix}-${this.counter}`;
    this.attempted.set(marker, kind);
    this.requests += 1;
    const res = await this.send(url, kind, marker);
    if (res.status >= 200 && res.status < 300)
      this.acknowledged.set(marker, kind);
    else if (res.status === 0)
      // The gateway is gone (killed, or not up yet): do not spin.
      await new Promise((resolve) => setTimeout(resolve, 20));
  }

  private send(url: string, kind: WriteKind, marker: string) {
    const options = { timeoutMs: 10_000 };
    switch (kind) {
      case 'event':
        return send(`${url}/events`, {
          ...options,
          method: 'POST',
          headers: { authorization: `Bearer ${WRITE_TOKEN}` },
          json: { title: marker },
        });
      case 'product':
        return send(`${url}/appdata/${APP_KEY}/product`, {
          ...options,
          method: 'POST',
          headers: { authorization: MASTER_AUTH },
          json: { name: marker, measurement: 'un' },
        });
      case 'issue':
        return send(`${url}/api/v4/projects/${this.project.id}/issues`, {
          ...options,
          method: 'POST',
          headers: { 'private-token': ROOT_TOKEN },
          json: { title: marker },
        });
      case 'sentry':
        return send(collectorUrl(url, this.project), {
          ...options,
          method: 'POST',
          json: {
            event_id: marker,
            message: `mixed load ${Math.floor(this.next() * 8)}`,
            level: 'error',
          },
        });
    }
  }

  /**
   * What the database holds for every marker: how many times each was
   * stored, and the error-tracking aggregates that must agree with their
   * events (nothing half-written).
   */
  async verify(pg: PrivatePostgres, database: string): Promise<Verdict> {
    const counts = new Map<string, number>();
    const add = (rows: Array<{ marker: string; n: string }>) => {
      for (const row of rows) counts.set(row.marker, Number(row.n));
    };
    const like = `${this.prefix}-%`;
    add(
      await pg.query(
        database,
        'SELECT title AS marker, count(*) AS n FROM events.events WHERE title LIKE $1 GROUP BY 1',
        [like],
      ),
    );
    add(
      await pg.query(
        database,
        `SELECT doc->>'name' AS marker, count(*) AS n FROM marketplace.records
          WHERE collection = 'product' AND doc->>'name' LIKE $1 GROUP BY 1`,
        [like],
      ),
    );
    add(
      await pg.query(
        database,
        'SELECT title AS marker, count(*) AS n FROM error_tracking.issues WHERE title LIKE $1 GROUP BY 1',
        [like],
      ),
    );
    add(
      await pg.query(
        database,
        `SELECT replace(event_id::text, '-', '') AS marker, count(*) AS n
           FROM error_tracking.events WHERE project_id = $1 GROUP BY 1`,
        [this.project.id],
      ),
    );
    const inconsistent = await inconsistentErrors(
      pg,
      database,
      this.project.id,
    );
    const lost = [...this.acknowledged.keys()].filter(
      (marker) => (counts.get(marker) ?? 0) !== 1,
    );
    const duplicated = [...counts].filter(([, n]) => n > 1).map(([m]) => m);
    return {
      acknowledged: this.acknowledged.size,
      attempted: this.attempted.size,
      lost,
      duplicated,
      inconsistentErrors: inconsistent,
    };
  }
}

/** Ids of the project's errors whose stored count disagrees with their stored events. */
export async function inconsistentErrors(
  pg: PrivatePostgres,
  database: string,
  projectId: number,
): Promise<string[]> {
  const rows = await pg.query<{ id: string }>(
    database,
    `SELECT e.id::text FROM error_tracking.errors e
      WHERE e.project_id = $1
        AND e.count <> (SELECT count(*) FROM error_tracking.events v WHERE v.error_id = e.id)`,
    [projectId],
  );
  return rows.map((row) => row.id);
}

export interface Verdict {
  readonly acknowledged: number;
  readonly attempted: number;
  /** Acknowledged but not stored exactly once. */
  readonly lost: string[];
  readonly duplicated: string[];
  /** Errors whose stored count disagrees with their stored events. */
  readonly inconsistentErrors: string[];
}
