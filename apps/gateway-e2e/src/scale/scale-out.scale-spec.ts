import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { withClient } from '@quitanda/testing';

import { startScaleCluster, until } from './support/cluster';
import type { ScaleCluster } from './support/cluster';
import { GATEWAY_CLI, startGatewayProcess } from './support/gateway-process';
import type { GatewayProcess } from './support/gateway-process';
import { CallLog, inParallel, percentile } from './support/load';

/**
 * Two gateways booting at the same moment through PgBouncer (transaction
 * pooling, Debian's 1.18) in front of a primary, reads on a streaming
 * replica, mixed load through both. `QUITANDA_SCALE=full` runs the sizes
 * docs/scaling.md quotes; the default is CI's small run.
 */
const FULL = process.env['QUITANDA_SCALE'] === 'full';
const SIZE = FULL
  ? {
      productPairs: 1_000,
      eventsPerProject: 900,
      issues: 300,
      eventRecords: 1_000,
      reads: 6_000,
      rateLimit: 1_000,
      expired: 120_000,
      probes: 400,
      readBacks: 1_500,
    }
  : {
      productPairs: 120,
      eventsPerProject: 150,
      issues: 40,
      eventRecords: 100,
      reads: 600,
      rateLimit: 300,
      expired: Number(process.env['QUITANDA_SCALE_EXPIRED'] ?? 30_000),
      probes: 150,
      readBacks: 150,
    };
const CONCURRENCY = 16;
/** PgBouncer's server connections for all gateways and contexts together. */
const SERVER_POOL = 8;
/** Client connections per context pool and gateway (primary and replica each). */
const DB_POOL_SIZE = 5;

const ROOT_TOKEN = 'glpat-scale-root-token-00000000000';
const APP_KEY = 'kid_scaleMarketApp01';
const MASTER =
  'Basic ' +
  Buffer.from(`${APP_KEY}:master-secret-scale-0123456789`).toString('base64');
/** The app's own credentials: a caller apart from the master's. */
const APP =
  'Basic ' +
  Buffer.from(`${APP_KEY}:app-secret-scale-0123456789`).toString('base64');

const run = promisify(execFile);
const DAY_MS = 86_400_000;

/**
 * `preparedStatements`: how an operator left `DB_PREPARED_STATEMENTS`. One
 * gateway says false, as docs/scaling.md tells them to for PgBouncer 1.18;
 * the other keeps the default, so its pools meet named statements in
 * foreign server sessions and must fall back without losing a write.
 */
function gatewayEnv(
  cluster: ScaleCluster,
  dataDir: string,
  preparedStatements = false,
) {
  return {
    DATABASE_URL: cluster.bouncerUrl,
    DATABASE_READ_URL: cluster.replicaUrl,
    DATA_DIR: dataDir,
    DB_POOL_SIZE: String(DB_POOL_SIZE),
    DB_PREPARED_STATEMENTS: String(preparedStatements),
    INITIAL_ROOT_TOKEN: ROOT_TOKEN,
    MARKETPLACE_APP_KEY: APP_KEY,
    MARKETPLACE_APP_SECRET: 'app-secret-scale-0123456789',
    MARKETPLACE_MASTER_SECRET: 'master-secret-scale-0123456789',
    ERROR_TRACKING_RATE_LIMIT_PER_MINUTE: String(SIZE.rateLimit),
    ERROR_TRACKING_RETENTION_INTERVAL_MINUTES: '0',
  };
}

describe('scale-out through PgBouncer and a streaming replica', () => {
  let cluster: ScaleCluster;
  let dataDir: string;
  let gateways: GatewayProcess[] = [];
  const log = new CallLog();
  /** Highest server connection count PgBouncer reported during the load. */
  let serverPeak = 0;
  let sampling: NodeJS.Timeout | undefined;

  const gw = (i: number) => (gateways[i % 2] as GatewayProcess).url;
  const api = (i: number, path: string, init: RequestInit = {}) =>
    log.call(path, `${gw(i)}${path}`, {
      ...init,
      headers: {
        'content-type': 'application/json',
        'private-token': ROOT_TOKEN,
        ...(init.headers as Record<string, string> | undefined),
      },
    });
  const primary = <T>(text: string, values: unknown[] = []) =>
    withClient(
      cluster.primaryUrl,
      async (client) => (await client.query(text, values)).rows as T[],
    );

  async function samplePool(): Promise<void> {
    const pools = await cluster.admin('SHOW POOLS');
    for (const pool of pools.filter((p) => p['database'] === 'quitanda')) {
      const servers = [
        'sv_active',
        'sv_idle',
        'sv_used',
        'sv_tested',
        'sv_login',
      ]
        .map((field) => Number(pool[field]))
        .reduce((a, b) => a + b, 0);
      serverPeak = Math.max(serverPeak, servers);
    }
  }

  beforeAll(async () => {
    cluster = await startScaleCluster({ poolSize: SERVER_POOL });
    dataDir = await mkdtemp(join(tmpdir(), 'quitanda-scale-data-'));
    sampling = setInterval(() => void samplePool().catch(() => undefined), 100);
  });

  afterAll(async () => {
    if (sampling) clearInterval(sampling);
    // What the gateways complained about, to read when something failed.
    for (const g of gateways)
      if (g.problems.length > 0)
        process.stderr.write(`${g.url}:\n${g.problems.join('\n')}\n`);
    await Promise.all(gateways.map((g) => g.stop()));
    await cluster?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('boots two gateways at the same moment through PgBouncer: migrations applied once, both ready with their replica', async () => {
    gateways = await Promise.all([
      startGatewayProcess(gatewayEnv(cluster, join(dataDir, 'a'))),
      startGatewayProcess(gatewayEnv(cluster, join(dataDir, 'b'), true)),
    ]);
    const applied = gateways.map((g) => g.applied);
    // Each migration by exactly one replica: every context migrates under
    // its own lock, so the two may share the work (whichever takes which).
    const all = applied.flat();
    expect(all.length).toBeGreaterThan(0);
    expect(new Set(all).size).toBe(all.length);
    const rows = await primary<{ schema: string; n: number; distinct: number }>(
      `SELECT s AS schema, count(*)::int AS n, count(DISTINCT name)::int AS distinct
         FROM (SELECT 'marketplace' AS s, name FROM marketplace.migrations
               UNION ALL SELECT 'events', name FROM events.migrations
               UNION ALL SELECT 'error_tracking', name FROM error_tracking.migrations) m
        GROUP BY s ORDER BY s`,
    );
    expect(rows.map((r) => r.schema)).toEqual([
      'error_tracking',
      'events',
      'marketplace',
    ]);
    for (const row of rows) expect(row.n).toBe(row.distinct);
    expect(rows.reduce((sum, r) => sum + r.n, 0)).toBe(applied.flat().length);
    // The same asset URLs from both (a content hash, not a boot time).
    const assetUrls = await Promise.all(
      gateways.map(async (g) => {
        const page = await log.call('sign in', `${g.url}/users/sign_in`);
        return [
          ...String(page.body).matchAll(/\/assets\/ui\.(?:css|js)\?v=\w+/g),
        ]
          .map((m) => m[0])
          .sort();
      }),
    );
    expect(assetUrls[0]).toHaveLength(2);
    expect(assetUrls[1]).toEqual(assetUrls[0]);
    for (const g of gateways) {
      const metrics = await log.call('metrics', `${g.url}/metrics`);
      expect(String(metrics.body)).toMatch(
        /db_read_pool_connections\{context="marketplace"\} \d+/,
      );
      const ready = await log.call('ready', `${g.url}/health/ready`);
      expect(ready.status).toBe(200);
      expect(ready.body).toMatchObject({
        status: 'ok',
        contexts: {
          marketplace: { database: 'up', replica: 'up' },
          events: { database: 'up', replica: 'up' },
          'error-tracking': { database: 'up', replica: 'up' },
        },
      });
    }
  });

  describe('under mixed load through both gateways', () => {
    const projects: Array<{ id: number; key: string }> = [];
    const acked = new Map<number, number>();
    let productIds: string[] = [];

    async function trackedProject(
      i: number,
    ): Promise<{ id: number; key: string }> {
      const project = await api(i, '/api/v4/projects', {
        method: 'POST',
        body: JSON.stringify({ name: `scale-${randomUUID().slice(0, 8)}` }),
      });
      expect(project.status).toBe(201);
      const id = (project.body as { id: number }).id;
      const settings = await api(
        i,
        `/api/v4/projects/${id}/error_tracking/settings`,
        {
          method: 'PUT',
          body: JSON.stringify({ active: true, integrated: true }),
        },
      );
      expect(settings.status).toBe(200);
      // The key list is a read that must see the write above: primary.
      const keys = await api(
        i,
        `/api/v4/projects/${id}/error_tracking/client_keys`,
      );
      const key = (keys.body as Array<{ public_key: string }>)[0]?.public_key;
      if (!key) throw new Error('no client key');
      return { id, key };
    }

    function sendEvent(
      i: number,
      project: { id: number; key: string },
      fingerprint: string,
      timestamp = new Date(),
    ) {
      const eventId = randomUUID().replace(/-/g, '');
      return log.call(
        `store ${project.id}`,
        `${gw(i)}/api/v4/error_tracking/collector/api/${project.id}/store/?sentry_key=${project.key}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            event_id: eventId,
            timestamp: timestamp.toISOString(),
            message: `scale ${fingerprint}`,
            fingerprint: [fingerprint],
          }),
        },
      );
    }

    beforeAll(async () => {
      for (let i = 0; i < 3; i++) projects.push(await trackedProject(i));
    });

    it('keeps names unique, counters equal to acknowledged events, issue iids dense and rate limits exact; no 5xx; within the server pool', async () => {
      const [issuesProject, limited] = [projects[0], projects[2]] as Array<{
        id: number;
        key: string;
      }>;
      const tasks: Array<() => Promise<unknown>> = [];
      // Each product name created twice at once, once through each gateway.
      for (let n = 0; n < SIZE.productPairs; n++)
        for (const side of [0, 1])
          tasks.push(() =>
            log.call(`product ${n}`, `${gw(side)}/appdata/${APP_KEY}/product`, {
              method: 'POST',
              headers: {
                authorization: MASTER,
                'content-type': 'application/json',
              },
              body: JSON.stringify({
                name: ` Produce ${n} `,
                measurement: 'kg',
              }),
            }),
          );
      for (const project of projects.slice(0, 2))
        for (let n = 0; n < SIZE.eventsPerProject; n++)
          tasks.push(async () => {
            const call = await sendEvent(n, project, `fp-${n % 7}`);
            if (call.status === 200)
              acked.set(project.id, (acked.get(project.id) ?? 0) + 1);
          });
      // More than the limit allows in a minute, through both gateways, as
      // one burst beside the rest (so it most likely fits in one minute).
      const burst = Array.from(
        { length: SIZE.rateLimit + SIZE.rateLimit / 2 },
        (_, n) => () => sendEvent(n, limited, 'limited'),
      );
      for (let n = 0; n < SIZE.issues; n++)
        tasks.push(() =>
          api(n, `/api/v4/projects/${issuesProject.id}/issues`, {
            method: 'POST',
            body: JSON.stringify({ title: `Issue ${n}` }),
          }),
        );
      for (let n = 0; n < SIZE.eventRecords; n++)
        tasks.push(() =>
          log.call('event record', `${gw(n)}/events`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ title: `scale ${n}` }),
          }),
        );
      // Interleave the kinds, so every kind meets every other.
      const shuffled = tasks
        .map((task, n) => ({ task, key: (n * 7919) % tasks.length }))
        .sort((a, b) => a.key - b.key)
        .map((t) => t.task);
      const loadStarted = performance.now();
      const before = log.calls.length;
      await Promise.all([
        inParallel(CONCURRENCY, shuffled),
        inParallel(CONCURRENCY / 2, burst),
      ]);
      const loadMs = performance.now() - loadStarted;
      const loadCalls = log.calls.slice(before);
      process.stdout.write(
        `scale load: ${JSON.stringify({
          calls: loadCalls.length,
          seconds: Math.round(loadMs / 100) / 10,
          perSecond: Math.round((loadCalls.length / loadMs) * 1000),
          p99: Math.round(
            percentile(
              loadCalls.map((c) => c.ms),
              99,
            ),
          ),
          clientConnections: 2 * 3 * DB_POOL_SIZE,
          serverPool: SERVER_POOL,
        })}\n`,
      );

      const products = log.calls.filter((c) => c.label.startsWith('product '));
      for (let n = 0; n < SIZE.productPairs; n++) {
        const pair = products
          .filter((c) => c.label === `product ${n}`)
          .map((c) => c.status)
          .sort();
        expect([n, pair]).toEqual([n, [201, 409]]);
      }
      productIds = products
        .filter((c) => c.status === 201)
        .map((c) => (c.body as { _id: string })._id);

      const counts = await primary<{
        project_id: number;
        n: string;
        events: string;
      }>(
        `SELECT e.project_id, sum(e.count)::text AS n,
                (SELECT count(*) FROM error_tracking.events ev WHERE ev.project_id = e.project_id)::text AS events
           FROM error_tracking.errors e WHERE e.project_id = ANY($1) GROUP BY 1`,
        [projects.slice(0, 2).map((p) => p.id)],
      );
      for (const project of projects.slice(0, 2)) {
        const row = counts.find((r) => r.project_id === project.id);
        expect(acked.get(project.id)).toBe(SIZE.eventsPerProject);
        expect(Number(row?.n)).toBe(acked.get(project.id));
        expect(Number(row?.events)).toBe(acked.get(project.id));
      }

      const iids = await primary<{ iid: number }>(
        'SELECT iid FROM error_tracking.issues WHERE project_id = $1 ORDER BY iid',
        [issuesProject.id],
      );
      expect(iids.map((r) => r.iid)).toEqual(
        Array.from({ length: SIZE.issues }, (_, n) => n + 1),
      );

      const limitedCalls = log.calls.filter(
        (c) => c.label === `store ${limited.id}`,
      );
      const accepted = limitedCalls.filter((c) => c.status === 200).length;
      const refused = limitedCalls.filter((c) => c.status === 429).length;
      expect(accepted + refused).toBe(limitedCalls.length);
      const windows = await primary<{ n: number }>(
        `SELECT count(*)::int AS n FROM error_tracking.rate_limit_windows w
           JOIN error_tracking.client_keys k ON k.id = w.key_id
          WHERE k.public_key = $1`,
        [limited.key],
      );
      const stored = await primary<{ n: number }>(
        'SELECT count(*)::int AS n FROM error_tracking.events WHERE project_id = $1',
        [limited.id],
      );
      // Exact across replicas: every acknowledged event stored, and the
      // limit reached, not passed, in each minute the burst touched.
      expect(stored[0]?.n).toBe(accepted);
      const minutes = windows[0]?.n ?? 0;
      if (minutes === 1) {
        expect(accepted).toBe(SIZE.rateLimit);
        expect(refused).toBe(limitedCalls.length - SIZE.rateLimit);
      } else expect(accepted).toBeLessThanOrEqual(minutes * SIZE.rateLimit);
      expect(log.serverErrors()).toEqual([]);
      // Gateway b's named statements met foreign sessions and fell back.
      const warned = (g: GatewayProcess) =>
        g.problems.some((p) => p.includes('QUITANDA_NAMED_STATEMENTS'));
      expect(gateways.map(warned)).toEqual([false, true]);
      await samplePool();
      expect(serverPeak).toBeGreaterThan(0);
      expect(serverPeak).toBeLessThanOrEqual(SERVER_POOL);
      const servers = await cluster.admin('SHOW SERVERS');
      expect(
        servers.filter((s) => s['database'] === 'quitanda').length,
      ).toBeLessThanOrEqual(SERVER_POOL);
    });

    it('serves the listed reads from the replica', async () => {
      await cluster.replicaCaughtUp();
      const replicaXacts = () =>
        withClient(cluster.replicaUrl, async (client) => {
          const rows = await client.query<{ n: string }>(
            `SELECT xact_commit::text AS n FROM pg_stat_database WHERE datname = 'quitanda'`,
          );
          return Number(rows.rows[0]?.n);
        });
      const before = await replicaXacts();
      const [project] = projects as Array<{ id: number; key: string }>;
      const errors = await api(
        0,
        `/api/v4/projects/${project?.id}/error_tracking/errors`,
      );
      expect(errors.status).toBe(200);
      const errorIds = (
        errors.body as Array<{ id: number; count: number }>
      ).map((e) => e.id);
      const listed = (errors.body as Array<{ count: number }>).reduce(
        (s, e) => s + e.count,
        0,
      );
      expect(listed).toBe(acked.get(project?.id ?? 0));
      const reads: Array<() => Promise<unknown>> = [];
      for (let n = 0; reads.length < SIZE.reads; n++) {
        const kind = n % 5;
        reads.push(() =>
          kind === 0
            ? log.call(
                'product list',
                `${gw(n)}/appdata/${APP_KEY}/product?limit=20&skip=${n % 50}`,
                {
                  headers: { authorization: MASTER },
                },
              )
            : kind === 1
              ? log.call(
                  'product',
                  `${gw(n)}/appdata/${APP_KEY}/product/${productIds[n % productIds.length]}`,
                  {
                    headers: { authorization: MASTER },
                  },
                )
              : kind === 2
                ? api(
                    n,
                    `/api/v4/projects/${project?.id}/error_tracking/errors?sort=frequency`,
                  )
                : kind === 3
                  ? api(
                      n,
                      `/api/v4/projects/${project?.id}/error_tracking/errors/${errorIds[n % errorIds.length]}`,
                    )
                  : log.call('events list', `${gw(n)}/events?limit=20`),
        );
      }
      const readsStarted = performance.now();
      const results = (await inParallel(CONCURRENCY, reads)) as Array<{
        status: number;
        ms: number;
      }>;
      const readCalls = () => results.map((r) => r.ms);
      expect(results.filter((r) => r.status !== 200)).toEqual([]);
      // Statistics reach pg_stat_database within a second or so.
      const readMs = performance.now() - readsStarted;
      await until(
        'the replica to count the reads',
        async () => (await replicaXacts()) - before >= SIZE.reads,
      );
      process.stdout.write(
        `scale reads: ${JSON.stringify({
          reads: SIZE.reads,
          replicaTransactions: (await replicaXacts()) - before,
          perSecond: Math.round((SIZE.reads / readMs) * 1000),
          p50: Math.round(percentile(readCalls(), 50)),
          p99: Math.round(percentile(readCalls(), 99)),
        })}\n`,
      );
      expect(log.serverErrors()).toEqual([]);
    });

    it('reads back every write at once through the gateway that took it, replay paused or not; a caller with no recent write stays on the replica', async () => {
      const project = await trackedProject(0);
      const errorsToResolve = Math.ceil(SIZE.readBacks / 3);
      for (let n = 0; n < errorsToResolve; n++)
        expect((await sendEvent(n, project, `ryw-${n}`)).status).toBe(200);
      const errorIds = (
        await primary<{ id: string }>(
          'SELECT id::text AS id FROM error_tracking.errors WHERE project_id = $1 ORDER BY id',
          [project.id],
        )
      ).map((row) => row.id);
      expect(errorIds).toHaveLength(errorsToResolve);
      const suffix = randomUUID().slice(0, 8);
      const productCount = async (side: number) => {
        const call = await log.call(
          'product count (app)',
          `${gw(side)}/appdata/${APP_KEY}/product/_count`,
          { headers: { authorization: APP } },
        );
        expect(call.status).toBe(200);
        return (call.body as { count: number }).count;
      };
      /** Each write and its read back, same client, same gateway. */
      const misses: string[] = [];
      const writeThenRead = (n: number) => async () => {
        const side = n % 2;
        if (n % 3 === 0) {
          const name = `ryw-${suffix}-${n}`;
          const created = await log.call(
            'ryw product',
            `${gw(side)}/appdata/${APP_KEY}/product`,
            {
              method: 'POST',
              headers: {
                authorization: MASTER,
                'content-type': 'application/json',
              },
              body: JSON.stringify({ name, measurement: 'kg' }),
            },
          );
          expect(created.status).toBe(201);
          const id = (created.body as { _id: string })._id;
          const byId = await log.call(
            'ryw product by id',
            `${gw(side)}/appdata/${APP_KEY}/product/${id}`,
            { headers: { authorization: MASTER } },
          );
          if (byId.status !== 200) misses.push(`product ${id}: ${byId.status}`);
          const query = encodeURIComponent(JSON.stringify({ name }));
          const found = await log.call(
            'ryw product query',
            `${gw(side)}/appdata/${APP_KEY}/product?query=${query}`,
            { headers: { authorization: MASTER } },
          );
          if ((found.body as unknown[]).length !== 1)
            misses.push(`product ${name} not listed`);
        } else if (n % 3 === 1) {
          const title = `ryw ${suffix} <${n}>`;
          const created = await log.call('ryw event', `${gw(side)}/events`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ title }),
          });
          expect(created.status).toBe(201);
          const listed = await log.call(
            'ryw events list',
            `${gw(side)}/events?limit=5&q=${encodeURIComponent(title)}`,
          );
          const titles = (listed.body as Array<{ title: string }>).map(
            (event) => event.title,
          );
          if (!titles.includes(title)) misses.push(`event ${title} not listed`);
        } else {
          const errorId = errorIds[(n - 2) / 3] as string;
          const path = `/api/v4/projects/${project.id}/error_tracking/errors/${errorId}`;
          const resolved = await api(side, path, {
            method: 'PUT',
            body: JSON.stringify({ status: 'resolved' }),
          });
          expect(resolved.status).toBe(200);
          const detail = await api(side, path);
          const status = (detail.body as { status: string }).status;
          if (status !== 'resolved') misses.push(`error ${errorId}: ${status}`);
        }
      };

      // Half the run with the replica's replay paused: a read the replica
      // served would miss every write, so none may reach it.
      await cluster.replicaCaughtUp();
      const stale = await productCount(0);
      const half = Math.floor(SIZE.readBacks / 2);
      const appCounts: number[] = [];
      await cluster.pauseReplay();
      try {
        await inParallel(
          CONCURRENCY,
          Array.from({ length: half }, (_, n) =>
            // Every fifth, the app's credentials, which wrote nothing:
            // their reads stay on the replica, which still shows what it
            // had when replay paused.
            n % 5 === 4
              ? async () => void appCounts.push(await productCount(n))
              : writeThenRead(n),
          ),
        );
      } finally {
        await cluster.resumeReplay();
      }
      const [{ n: written } = { n: 0 }] = await primary<{ n: number }>(
        `SELECT count(*)::int AS n FROM marketplace.records WHERE app_key = $1 AND collection = 'product'`,
        [APP_KEY],
      );
      expect(written).toBeGreaterThan(stale);
      expect(new Set(appCounts)).toEqual(new Set([stale]));
      // The other half with replay running: a replica a few ms behind.
      await inParallel(
        CONCURRENCY,
        Array.from({ length: SIZE.readBacks - half }, (_, n) =>
          writeThenRead(half + n),
        ),
      );
      process.stdout.write(
        `scale read-your-writes: ${JSON.stringify({
          readBacks: SIZE.readBacks,
          missed: misses.length,
          appReadsOnPausedReplica: appCounts.length,
        })}\n`,
      );
      expect(misses).toEqual([]);
      expect(log.serverErrors()).toEqual([]);
    });

    it('keeps ingesting at the same latency while retention deletes a large batch', async () => {
      const doomed = await trackedProject(0);
      const old = new Date(Date.now() - 100 * DAY_MS);
      // Expired events as a long-running installation has them: an old
      // day's partition, sent and received long ago (an event is kept its
      // whole period since it was received, so only these may go).
      await primary(
        `CREATE TABLE IF NOT EXISTS error_tracking.events_p${old.toISOString().slice(0, 10).replace(/-/g, '')}
           PARTITION OF error_tracking.events
           FOR VALUES FROM ('${old.toISOString().slice(0, 10)}T00:00:00Z')
                        TO ('${new Date(Date.parse(old.toISOString().slice(0, 10)) + DAY_MS).toISOString()}')`,
      );
      await primary(
        `WITH err AS (
           INSERT INTO error_tracking.errors
                  (project_id, fingerprint, grouping_version, title, level, count, user_count,
                   first_seen, last_seen, last_event_id, created_at, updated_at)
           VALUES ($1, gen_random_uuid(), 1, 'expired', 'error', $2, 0, $3, $3, gen_random_uuid(), now(), now())
           RETURNING id),
         ev AS (
           SELECT gen_random_uuid() AS event_id, $3::timestamptz AS ts,
                  $3::timestamptz + make_interval(secs => n % 60) AS received_at
             FROM generate_series(1, $2) n),
         ids AS (
           INSERT INTO error_tracking.event_ids (project_id, event_id, timestamp, received_at)
           SELECT $1, event_id, ts, received_at FROM ev),
         hours AS (
           INSERT INTO error_tracking.error_hourly_counts (error_id, hour, environment, count)
           SELECT id, date_trunc('hour', $3::timestamptz), 'production', $2 FROM err)
         INSERT INTO error_tracking.events
                (error_id, timestamp, event_id, received_at, project_id, level, environment, payload)
         SELECT err.id, ev.ts, ev.event_id, ev.received_at, $1, 'error', 'production', '{"message":"expired"}'
           FROM ev, err`,
        [doomed.id, SIZE.expired, old],
      );
      // Probes spread over projects, each under its per-minute limit.
      const probeProjects: Array<{ id: number; key: string }> = [];
      for (let n = 0; n < 8; n++) probeProjects.push(await trackedProject(n));
      const probeCap = probeProjects.length * SIZE.rateLimit - SIZE.probes;
      const probeOnce = async (n: number) => {
        const project = probeProjects[n % probeProjects.length] as {
          id: number;
          key: string;
        };
        const call = await sendEvent(n, project, `probe-${n % 3}`);
        expect(call.status).toBe(200);
        return call.ms;
      };
      const probes = (count: number) =>
        inParallel(
          2,
          Array.from({ length: count }, (_, n) => () => probeOnce(n)),
        );
      const baseline = await probes(SIZE.probes);

      const during: number[] = [];
      let retentionDone = false;
      const retention = run(process.execPath, [GATEWAY_CLI, 'retention:run'], {
        env: {
          PATH: process.env['PATH'] ?? '',
          ...gatewayEnv(cluster, join(dataDir, 'cli')),
          LOG_LEVEL: 'warn',
        },
      }).finally(() => {
        retentionDone = true;
      });
      // What the expired project still holds, seen between two probes: a
      // retention in one transaction would only ever show all or nothing.
      const remaining: number[] = [];
      const started = performance.now();
      await inParallel(
        2,
        [0, 1].map((side) => async () => {
          for (
            let n = side;
            !retentionDone && during.length < probeCap;
            n += 2
          ) {
            during.push(await probeOnce(n));
            if (side === 0) {
              const [row] = await primary<{ n: number }>(
                'SELECT count(*)::int AS n FROM error_tracking.event_ids WHERE project_id = $1',
                [doomed.id],
              );
              remaining.push(row?.n ?? 0);
            }
          }
        }),
      );
      const retentionMs = performance.now() - started;
      const { stdout } = await retention;

      const left = await primary<{ n: number }>(
        'SELECT count(*)::int AS n FROM error_tracking.events WHERE project_id = $1',
        [doomed.id],
      );
      expect(left[0]?.n).toBe(0);
      // Every counter still matches the events that remain.
      const off = await primary(
        `SELECT e.id FROM error_tracking.errors e
           LEFT JOIN (SELECT error_id, count(*) AS n FROM error_tracking.events GROUP BY 1) c
             ON c.error_id = e.id
          WHERE e.count <> coalesce(c.n, 0)`,
      );
      expect(off).toEqual([]);

      const reported = /in (\d+) ms/.exec(stdout);
      const figures = {
        expired: SIZE.expired,
        /** The CLI's whole run, its boot included. */
        retentionCliMs: Math.round(retentionMs),
        retentionMs: Number(reported?.[1]),
        baselineP50: Math.round(percentile(baseline, 50)),
        baselineP99: Math.round(percentile(baseline, 99)),
        duringP50: Math.round(percentile(during, 50)),
        duringP99: Math.round(percentile(during, 99)),
        duringMax: Math.round(Math.max(...during)),
        probesDuring: during.length,
        midwayObservations: remaining.filter((n) => n > 0 && n < SIZE.expired)
          .length,
        serverPeak,
      };
      process.stdout.write(
        `scale figures: ${JSON.stringify(figures)}\n${stdout}`,
      );
      // Ingestion kept acknowledging while retention ran, at its usual pace
      // (a flush waiting on a table lock would wait for the whole run).
      expect(during.length).toBeGreaterThan(0);
      // ... and it acknowledged while the deletion was under way.
      expect(remaining.some((n) => n > 0 && n < SIZE.expired)).toBe(true);
      expect(figures.duringP99).toBeLessThanOrEqual(
        Math.max(3 * figures.baselineP99, figures.baselineP99 + 150),
      );
      expect(log.serverErrors()).toEqual([]);
    });

    it('keeps serving those reads from the primary when the replica is gone, and says so', async () => {
      await cluster.stopReplica();
      const [project] = projects as Array<{ id: number; key: string }>;
      for (const side of [0, 1]) {
        const list = await log.call(
          'product list without replica',
          `${gw(side)}/appdata/${APP_KEY}/product?limit=5`,
          { headers: { authorization: MASTER } },
        );
        expect(list.status).toBe(200);
        expect(list.body).toHaveLength(5);
        const errors = await api(
          side,
          `/api/v4/projects/${project?.id}/error_tracking/errors`,
        );
        expect(errors.status).toBe(200);
        const ready = await log.call('ready', `${gw(side)}/health/ready`);
        expect(ready.status).toBe(200);
        expect(ready.body).toMatchObject({
          status: 'ok',
          contexts: { marketplace: { database: 'up', replica: 'down' } },
        });
      }
      expect(log.serverErrors()).toEqual([]);
    });
  });
});
