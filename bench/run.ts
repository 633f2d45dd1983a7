/**
 * `npm run bench [-- --only <text>] [--seconds 15] [--warmup 3] [--runs 3]`
 *
 * Measures each workload of the contracts the same way for Quitanda and for
 * its bare node:http + pg baseline: the server pinned to core 1, this process
 * (the load generator, autocannon) pinned to core 0, PostgreSQL unpinned; 32
 * connections; warm-up, then a measured run; runs interleaved between the
 * servers; the median reported. Needs a PostgreSQL server: BENCH_DATABASE_URL,
 * else DATABASE_URL, else the local one. Creates and drops its own database.
 */
import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { runMigrations } from '@quitanda/database';
import { migrationTargets } from '@quitanda/gateway';
import { Client } from 'pg';

import { load } from './lib/load';
import { canPin, freePort, pinSelf, startServer } from './lib/processes';
import { markdown, summarise } from './lib/report';
import type { Measurement, Workload } from './lib/types';
import {
  errorsDetail,
  errorsList,
  ingestEnvelope,
  ingestEnvelopeAlerts,
  ingestEnvelopeLargeTable,
  ingestGzip,
  ingestMixed,
  ingestStore,
} from './workloads/error-tracking.workloads';
import { eventsCreate, eventsGet } from './workloads/events.workloads';
import {
  marketplaceCreateAssortment,
  marketplaceListProducts,
  marketplaceLogin,
  marketplaceProducerAssortment,
} from './workloads/marketplace.workloads';

const ROOT = join(__dirname, '..');

function allWorkloads(databaseUrl: string): Workload[] {
  return [
    eventsGet(databaseUrl),
    eventsCreate(databaseUrl),
    ingestEnvelope(databaseUrl),
    ingestEnvelopeAlerts(databaseUrl),
    ingestGzip(databaseUrl),
    ingestStore(databaseUrl),
    ingestMixed(databaseUrl),
    errorsList(databaseUrl),
    errorsDetail(databaseUrl),
    ingestEnvelopeLargeTable(databaseUrl),
    marketplaceListProducts(databaseUrl),
    marketplaceProducerAssortment(databaseUrl),
    marketplaceCreateAssortment(databaseUrl),
    marketplaceLogin(databaseUrl),
  ];
}

async function withAdmin<T>(
  url: string,
  work: (client: Client) => Promise<T>,
): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      seconds: { type: 'string', default: '15' },
      warmup: { type: 'string', default: '3' },
      runs: { type: 'string', default: '3' },
      connections: { type: 'string', default: '32' },
    },
  });
  const seconds = Number(values.seconds);
  const warmup = Number(values.warmup);
  const runs = Number(values.runs);
  const connections = Number(values.connections);
  const server =
    process.env['BENCH_DATABASE_URL'] ??
    process.env['DATABASE_URL'] ??
    'postgres://postgres@127.0.0.1:5432/postgres';

  execFileSync(
    process.execPath,
    [require.resolve('nx/bin/nx.js'), 'run', 'gateway:build'],
    {
      cwd: ROOT,
      stdio: 'ignore',
    },
  );
  const pinned = canPin();
  if (pinned) pinSelf();
  else console.warn('taskset unavailable or one core only: running unpinned.');

  const name = `qbench_${randomBytes(4).toString('hex')}`;
  await withAdmin(server, (admin) => admin.query(`CREATE DATABASE "${name}"`));
  const url = new URL(server);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const measurements: Measurement[] = [];
  let workloads: Workload[] = [];
  try {
    for (const target of migrationTargets())
      await runMigrations(target(databaseUrl));
    workloads = allWorkloads(databaseUrl).filter(
      (w) => !values.only || w.name.includes(values.only),
    );
    for (const workload of workloads) {
      console.log(`\n${workload.name}: ${workload.description}`);
      const prepared = await workload.prepare(databaseUrl);
      for (let run = 1; run <= runs; run++) {
        for (const target of workload.targets) {
          const port = await freePort();
          const running = await startServer(
            target.command(port),
            port,
            '/health/ready',
            pinned,
          );
          try {
            const requests = target.requests
              ? target.requests(
                  running.url,
                  await target.prepare?.(running.url),
                )
              : workload.requests(running.url, prepared);
            const conns = workload.connections ?? connections;
            await load(running.url, requests, warmup, conns);
            const result = await load(running.url, requests, seconds, conns);
            measurements.push({
              workload: workload.name,
              target: target.name,
              run,
              ...result,
            });
            console.log(
              `  run ${run} ${target.name}: ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms` +
                (result.errors || result.non2xx
                  ? `, ${result.errors} errors, ${result.non2xx} non-2xx`
                  : ''),
            );
          } finally {
            await running.stop();
          }
        }
      }
    }
  } finally {
    await withAdmin(server, (admin) =>
      admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
    );
  }

  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const pg = await withAdmin(
    server,
    async (admin) =>
      (await admin.query('SHOW server_version')).rows[0]
        .server_version as string,
  );
  const setup =
    `Measured ${new Date().toISOString()} on ${cpu} (${cpus().length} cores), PostgreSQL ${pg}, Node ${process.version}; ` +
    `${pinned ? 'server on core 1, load generator on core 0' : 'unpinned'}; ${connections} connections; ` +
    `${warmup} s warm-up + ${seconds} s measured; ${runs} interleaved runs; median.`;
  const report = markdown(summarise(measurements), workloads, setup);
  console.log(`\n${report}`);
  const dir = join(ROOT, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  writeFileSync(join(dir, `${stamp}.md`), `${report}\n`);
  writeFileSync(
    join(dir, `${stamp}.json`),
    `${JSON.stringify(measurements, null, 2)}\n`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
