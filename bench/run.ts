/**
 * `npm run bench [-- --only <text>] [--skip <text>] [--seconds 15] [--warmup 3] [--runs 3]
 *   [--connections 32] [--quick] [--small] [--no-parse] [--explain] [--workers 2]`
 *
 * Measures each workload of the contracts the same way for Quitanda, its
 * minimal baselines and Parse Server: the server pinned to core 1, this
 * process (the load generator, autocannon) pinned to core 0, PostgreSQL
 * unpinned; 32 connections; warm-up, then a measured run; runs interleaved
 * between the servers; the median and each server's peak RSS reported. The
 * small-table workloads run first, then the large tables are seeded by SQL
 * and measured. Needs a PostgreSQL server: BENCH_DATABASE_URL, else
 * DATABASE_URL, else the local one. Creates and drops its own database.
 *
 * `--quick`: 1 s warm-up, 3 s measured, one run (a smoke test, not figures).
 * `--small`: skips the large-table workloads and their seeding.
 * `--no-parse`: no Parse Server (else installed once when PARSE_SERVER_DIR
 * is unset, see `lib/parse-server-install.ts`).
 * `--explain`: seeds the 1,000,000-record marketplace app and prints the
 * plans of the queries the SDKs send most, without load.
 * `--against "[node flags] <main.js>"`: also runs another build of the
 * gateway (say, the previous commit's `dist/apps/gateway/src/main.js`) as
 * target "quitanda (before)", interleaved with this one, so a change's cost
 * shows in one run on one machine state rather than across two runs. It
 * gets exactly the node flags given (GATEWAY_NODE_FLAGS are not added).
 * `--no-baselines`: only Quitanda (and the `--against` build): an A/B of two
 * builds without the minutes the baselines take; the contract's ratios are
 * then not reported.
 * `--callgrind`: instead of timing, counts the instructions each Quitanda
 * build (this one, and the `--against` one) executes per request under
 * valgrind's callgrind: `--requests` measured (1,000; 100 with `--quick`)
 * after four times as many to warm up, one at a time. A deterministic A/B
 * of a change's cost, whatever else the machine is doing; no baselines.
 * `--day`: the selected workloads one after another against one Quitanda
 * process, as an operator's day mixes them (each for `--seconds` after its
 * `--warmup`), then `--rest` seconds (60) idle: its peak RSS after each
 * workload, over the whole sequence, and at rest. No baselines.
 * `--workers <n>`: also runs Quitanda with `WORKERS=n` as target
 * "quitanda (n workers)", beside the one-process figure, pinned to cores 1
 * to n (fewer when the machine has fewer beside the load generator's: on
 * two cores both workers share core 1); peak RSS is the processes' sum.
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

import { instructionsPerRequest } from './lib/callgrind';
import type { CallgrindCounts } from './lib/callgrind';
import { load } from './lib/load';
import {
  canPin,
  databaseCpuMs,
  freePort,
  pinSelf,
  startServer,
} from './lib/processes';
import { parseServerDir } from './lib/parse-server-install';
import { probeAnswer } from './lib/probe';
import { markdown, summarise } from './lib/report';
import type { Measurement, Target, Workload } from './lib/types';
import {
  errorsDetail,
  errorsList,
  errorsListByTag,
  errorsTags,
  errorsWebEvent,
  errorsWebList,
  ingestEnvelope,
  ingestEnvelopeAlerts,
  ingestEnvelopeLargeTable,
  ingestGzip,
  ingestZstd,
  ingestMixed,
  ingestStore,
} from './workloads/error-tracking.workloads';
import {
  eventsCreate,
  eventsGet,
  eventsGetLarge,
} from './workloads/events.workloads';
import { explainLargeQueries } from './workloads/marketplace.explain';
import {
  marketplaceCreateAssortment,
  marketplaceCreateAssortmentLarge,
  marketplaceCreateWithHook,
  marketplaceListProducts,
  marketplaceListProductsLarge,
  marketplaceLogin,
  marketplaceProducerAssortment,
  marketplaceProducerAssortmentLarge,
} from './workloads/marketplace.workloads';

const ROOT = join(__dirname, '..');

/**
 * In this order: each workload seeds what it needs when it comes, so every
 * small-table figure is taken before a large table is loaded beside it.
 */
function allWorkloads(databaseUrl: string, large: boolean): Workload[] {
  const small = [
    eventsGet(databaseUrl),
    eventsCreate(databaseUrl),
    ingestEnvelope(databaseUrl),
    ingestEnvelopeAlerts(databaseUrl),
    ingestGzip(databaseUrl),
    ingestZstd(databaseUrl),
    ingestStore(databaseUrl),
    ingestMixed(databaseUrl),
    marketplaceListProducts(databaseUrl),
    marketplaceProducerAssortment(databaseUrl),
    marketplaceCreateAssortment(databaseUrl),
    marketplaceLogin(databaseUrl),
    marketplaceCreateWithHook(databaseUrl),
  ];
  if (!large) return small;
  return [
    ...small,
    errorsList(databaseUrl),
    errorsListByTag(databaseUrl),
    errorsDetail(databaseUrl),
    errorsTags(databaseUrl),
    errorsWebList(databaseUrl),
    errorsWebEvent(databaseUrl),
    ingestEnvelopeLargeTable(databaseUrl),
    eventsGetLarge(databaseUrl),
    marketplaceListProductsLarge(databaseUrl),
    marketplaceProducerAssortmentLarge(databaseUrl),
    marketplaceCreateAssortmentLarge(databaseUrl),
  ];
}

/** Parse Server for the marketplace workloads, unless told otherwise. */
function provideParseServer(wanted: boolean, selected: boolean): void {
  if (!wanted) {
    delete process.env['PARSE_SERVER_DIR'];
    return;
  }
  if (selected && !process.env['PARSE_SERVER_DIR'])
    process.env['PARSE_SERVER_DIR'] = parseServerDir(ROOT);
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

/** CPU time between two readings (ms) per request, in microseconds. */
function usPerRequest(
  beforeMs: number | undefined,
  afterMs: number | undefined,
  requests: number,
): number | undefined {
  return beforeMs === undefined || afterMs === undefined || requests === 0
    ? undefined
    : Math.round(((afterMs - beforeMs) * 1000) / requests);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      skip: { type: 'string' },
      seconds: { type: 'string', default: '15' },
      warmup: { type: 'string', default: '3' },
      runs: { type: 'string', default: '3' },
      connections: { type: 'string', default: '32' },
      quick: { type: 'boolean', default: false },
      small: { type: 'boolean', default: false },
      'no-parse': { type: 'boolean', default: false },
      explain: { type: 'boolean', default: false },
      against: { type: 'string' },
      'no-baselines': { type: 'boolean', default: false },
      workers: { type: 'string' },
      callgrind: { type: 'boolean', default: false },
      day: { type: 'boolean', default: false },
      rest: { type: 'string', default: '60' },
      requests: { type: 'string' },
    },
  });
  const seconds = values.quick ? 3 : Number(values.seconds);
  const warmup = values.quick ? 1 : Number(values.warmup);
  const runs = values.quick ? 1 : Number(values.runs);
  const connections = Number(values.connections);
  const server =
    process.env['BENCH_DATABASE_URL'] ??
    process.env['DATABASE_URL'] ??
    'postgres://postgres@127.0.0.1:5432/postgres';

  if (!values.explain)
    execFileSync(
      process.execPath,
      [require.resolve('nx/bin/nx.js'), 'run', 'gateway:build'],
      { cwd: ROOT, stdio: 'ignore' },
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
  /** Servers whose answers differ from Quitanda's, named under the table. */
  const notes: string[] = [];
  let workloads: Workload[] = [];
  try {
    for (const target of migrationTargets())
      await runMigrations(target(databaseUrl));
    if (values.explain) {
      const plans = await explainLargeQueries(databaseUrl);
      console.log(`\n${plans}`);
      save(`${plans}\n`, 'explain.md');
      return;
    }
    const selected = (w: Workload) =>
      (!values.only || w.name.includes(values.only)) &&
      (!values.skip || !w.name.includes(values.skip));
    provideParseServer(
      !values['no-parse'],
      allWorkloads(databaseUrl, !values.small)
        .filter(selected)
        .some((w) => w.name.startsWith('marketplace')),
    );
    workloads = allWorkloads(databaseUrl, !values.small).filter(selected);
    if (values['no-baselines'] || values.callgrind || values.day)
      workloads = workloads.map((w) => ({
        ...w,
        targets: w.targets.filter((t) => t.name === 'quitanda'),
      }));
    const against = values.against;
    if (against) workloads = workloads.map((w) => withEarlierBuild(w, against));
    const workers = Number(values.workers ?? 1);
    if (!Number.isInteger(workers) || workers < 1)
      throw new Error(
        `--workers must be a number of processes; got ${values.workers}`,
      );
    if (workers > 1) workloads = workloads.map((w) => withWorkers(w, workers));
    if (values.day) {
      const day = await operatorsDay(workloads, databaseUrl, pinned, {
        warmup,
        seconds,
        connections,
        restSeconds: Number(values.rest),
      });
      console.log(`\n${day}`);
      save(`${day}\n`, 'day.md');
      return;
    }
    if (values.callgrind) {
      const measured = Number(values.requests ?? (values.quick ? 100 : 1000));
      const counted = await countInstructions(workloads, databaseUrl, {
        warmup: measured * 4,
        measured,
        connections,
      });
      console.log(`\n${counted}`);
      save(`${counted}\n`, 'callgrind.md');
      return;
    }
    for (const workload of workloads) {
      console.log(`\n${workload.name}: ${workload.description}`);
      const prepared = await workload.prepare(databaseUrl);
      const answers = new Map<string, string>();
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
            if (run === 1 && workload.probe && !target.requests)
              answers.set(
                target.name,
                await probeAnswer(running.url, workload.probe(prepared)),
              );
            const conns = workload.connections ?? connections;
            await load(running.url, requests, warmup, conns);
            const cpuBefore = running.cpuMs();
            const dbBefore = databaseCpuMs();
            const result = await load(running.url, requests, seconds, conns);
            const cpuAfter = running.cpuMs();
            const dbAfter = databaseCpuMs();
            const cpuUsPerRequest = usPerRequest(
              cpuBefore,
              cpuAfter,
              result.requests,
            );
            const dbUsPerRequest = usPerRequest(
              dbBefore,
              dbAfter,
              result.requests,
            );
            const peakRssMb = running.peakRssMb();
            measurements.push({
              workload: workload.name,
              target: target.name,
              run,
              ...result,
              peakRssMb,
              cpuUsPerRequest,
              dbUsPerRequest,
            });
            console.log(
              `  run ${run} ${target.name}: ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, CPU ${cpuUsPerRequest ?? '?'} us/req, PostgreSQL ${dbUsPerRequest ?? '?'} us/req, peak RSS ${peakRssMb ?? '?'} MB` +
                (result.errors || result.non2xx
                  ? `, ${result.errors} errors, ${result.non2xx} non-2xx`
                  : ''),
            );
          } finally {
            await running.stop();
          }
        }
      }
      const expected = answers.get('quitanda');
      const differing = [...answers.keys()].filter(
        (server) => answers.get(server) !== expected,
      );
      for (const server of differing) {
        const note = `${workload.name}: ${server} answers the probe differently from Quitanda`;
        console.warn(`  ${note}`);
        notes.push(note);
      }
      if (answers.size > 1 && differing.length === 0)
        console.log(
          `  ${answers.size} servers give the same answer to the probe`,
        );
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
  const report = [
    markdown(summarise(measurements), workloads, setup),
    ...notes.map((note) => `\n**Not comparable**: ${note}.`),
  ].join('\n');
  console.log(`\n${report}`);
  save(`${report}\n`, 'md');
  save(`${JSON.stringify(measurements, null, 2)}\n`, 'json');
}

/**
 * `--day`: one gateway through every selected workload in turn (its
 * settings the union of theirs), its peak RSS read after each, then left
 * idle for `restSeconds` and its resident set read again.
 */
async function operatorsDay(
  workloads: readonly Workload[],
  databaseUrl: string,
  pinned: boolean,
  run: {
    warmup: number;
    seconds: number;
    connections: number;
    restSeconds: number;
  },
): Promise<string> {
  const prepared: unknown[] = [];
  for (const workload of workloads)
    prepared.push(await workload.prepare(databaseUrl));
  const port = await freePort();
  const commands = workloads.flatMap((w) =>
    w.targets.filter((t) => t.name === 'quitanda').map((t) => t.command(port)),
  );
  const [first] = commands;
  if (!first) throw new Error('--day needs a Quitanda workload');
  const env = Object.assign({}, ...commands.map((c) => c.env)) as Record<
    string,
    string
  >;
  // Every context, not the last workload's own choice.
  delete env['CONTEXTS'];
  const command = { ...first, env };
  const running = await startServer(command, port, '/health/ready', pinned);
  const rows: string[] = [];
  try {
    for (const [index, workload] of workloads.entries()) {
      const requests = workload.requests(running.url, prepared[index]);
      const conns = workload.connections ?? run.connections;
      await load(running.url, requests, run.warmup, conns);
      const result = await load(running.url, requests, run.seconds, conns);
      const peak = running.peakRssMb();
      console.log(
        `  ${workload.name}: ${Math.round(result.requestsPerSecond)} req/s, peak RSS so far ${peak ?? '?'} MB`,
      );
      rows.push(
        `| ${workload.name} | ${Math.round(result.requestsPerSecond)} | ${result.errors + result.non2xx} | ${peak ?? '?'} |`,
      );
    }
    const peak = running.peakRssMb();
    await new Promise((resolve) => setTimeout(resolve, run.restSeconds * 1000));
    const rest = running.rssMb();
    return [
      `One gateway through ${workloads.length} workloads in turn (${run.warmup} s warm-up + ${run.seconds} s each), then ${run.restSeconds} s idle: peak RSS ${peak ?? '?'} MB, at rest ${rest ?? '?'} MB.`,
      '',
      '| workload | req/s | errors + non-2xx | peak RSS so far (MB) |',
      '|---|---:|---:|---:|',
      ...rows,
    ].join('\n');
  } finally {
    await running.stop();
  }
}

/** `--callgrind`: instructions per request of each build, as a table. */
async function countInstructions(
  workloads: readonly Workload[],
  databaseUrl: string,
  counts: CallgrindCounts,
): Promise<string> {
  const rows: string[] = [];
  for (const workload of workloads) {
    console.log(`\n${workload.name}: ${workload.description}`);
    const prepared = await workload.prepare(databaseUrl);
    const figures: number[] = [];
    for (const target of workload.targets) {
      const port = await freePort();
      const perRequest = await instructionsPerRequest(
        target.command(port),
        port,
        workload.requests(`http://127.0.0.1:${port}`, prepared),
        counts,
      );
      figures.push(perRequest);
      console.log(
        `  ${target.name}: ${(perRequest / 1e6).toFixed(3)} M instructions/request`,
      );
    }
    const [ours, before] = figures;
    const change =
      ours !== undefined && before !== undefined
        ? `${(((ours - before) / before) * 100).toFixed(1)}%`
        : '';
    rows.push(
      `| ${workload.name} | ${figures.map((f) => (f / 1e6).toFixed(3)).join(' | ')} | ${change} |`,
    );
  }
  const names = workloads[0]?.targets.map((t) => t.name) ?? [];
  return [
    `Instructions per request (millions), callgrind; ${counts.measured} measured after ${counts.warmup}, ${counts.connections} connections.`,
    '',
    `| workload | ${names.join(' | ')} | change |`,
    `|---|${names.map(() => '---:').join('|')}|---:|`,
    ...rows,
  ].join('\n');
}

/**
 * Adds the other build after every target (so the first baseline, which the
 * contract's ratios use, stays first), started as Quitanda is but with the
 * node command line given: node flags, if any, then the build's main.js.
 * `--against="--max-old-space-size=1024 dist/apps/gateway/src/main.js"`
 * thus compares this build with itself under other node flags.
 */
function withEarlierBuild(workload: Workload, commandLine: string): Workload {
  const ours = workload.targets.find((t) => t.name === 'quitanda');
  if (!ours) return workload;
  const args = commandLine.split(/\s+/).filter(Boolean);
  const before: Target = {
    name: 'quitanda (before)',
    command: (port) => ({ ...ours.command(port), args }),
  };
  return { ...workload, targets: [...workload.targets, before] };
}

/**
 * Adds Quitanda with `WORKERS=n` after its one-process self: the same
 * build and settings, n processes on one port, pinned to cores 1 to n
 * (as many as the machine has beside the load generator's).
 */
function withWorkers(workload: Workload, workers: number): Workload {
  const ours = workload.targets.find((t) => t.name === 'quitanda');
  if (!ours) return workload;
  const cluster: Target = {
    name: `quitanda (${workers} workers)`,
    command: (port) => {
      const command = ours.command(port);
      return {
        ...command,
        env: { ...command.env, WORKERS: String(workers) },
        workers,
      };
    },
  };
  const at = workload.targets.indexOf(ours) + 1;
  return {
    ...workload,
    targets: [
      ...workload.targets.slice(0, at),
      cluster,
      ...workload.targets.slice(at),
    ],
  };
}

const STAMP = new Date().toISOString().replace(/[:.]/g, '-');

/** Writes `bench/results/<start time>.<suffix>`. */
function save(text: string, suffix: string): void {
  const dir = join(ROOT, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${STAMP}.${suffix}`);
  writeFileSync(file, text);
  console.log(`Written to ${file}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
