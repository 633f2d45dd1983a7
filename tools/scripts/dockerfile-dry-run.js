#!/usr/bin/env node
// Replays the Dockerfile without a Docker engine (CI machines here have
// none), so a change that breaks the image's build or its start shows up in
// CI: every stage gets its own folder standing in for its filesystem; COPY,
// WORKDIR, ENV and the build stages' RUN lines run as written; the last
// stage starts with its CMD and ENV as an unprivileged user (its USER),
// answers its HEALTHCHECK, serves an event, and stops on its STOPSIGNAL.
//
// Then compose's gateway: the file is checked for what `up` relies on (built
// from here, waits for a healthy database, volumes), and the image runs
// again with compose's environment against this machine's PostgreSQL.
//
// What it cannot check is said as it goes: the base images, and the last
// stage's RUN lines, which act on absolute paths of the image (they are
// checked to create and hand each VOLUME to the USER, and that is emulated).
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const yaml = require('js-yaml');
const { Client } = require('pg');

const ROOT = path.join(__dirname, '../..');
const INSTRUCTIONS = new Set([
  'FROM',
  'ARG',
  'WORKDIR',
  'COPY',
  'RUN',
  'ENV',
  'USER',
  'VOLUME',
  'EXPOSE',
  'HEALTHCHECK',
  'STOPSIGNAL',
  'CMD',
]);

function fail(message) {
  throw new Error(message);
}

/** Stages of instructions `{ op, args }`, continuation lines joined. */
function parseDockerfile(text) {
  const lines = text.replace(/\\\r?\n/g, ' ').split(/\r?\n/);
  const stages = [];
  for (const line of lines) {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) continue;
    const [, op, args] =
      /^(\S+)\s+(.*)$/.exec(trimmed) ?? fail(`cannot read: ${trimmed}`);
    const upper = op.toUpperCase();
    if (!INSTRUCTIONS.has(upper))
      fail(`the dry run does not know ${upper}; teach it`);
    if (upper === 'FROM') {
      const [, image, name] =
        /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args) ?? fail(`FROM ${args}`);
      stages.push({ image, name: name ?? `stage${stages.length}`, steps: [] });
    } else {
      (stages.at(-1) ?? fail('instruction before FROM')).steps.push({
        op: upper,
        args,
      });
    }
  }
  return stages;
}

function parseEnv(args) {
  const env = {};
  for (const [, key, value] of args.matchAll(/(\w+)=("[^"]*"|\S*)/g))
    env[key] = value.replace(/^"|"$/g, '');
  return env;
}

function copyInto(source, destination) {
  const stat = fs.statSync(source);
  const target =
    stat.isFile() && (destination.endsWith('/') || isDirectory(destination))
      ? path.join(destination, path.basename(source))
      : destination;
  fs.mkdirSync(stat.isFile() ? path.dirname(target) : target, {
    recursive: true,
  });
  fs.cpSync(source, target, { recursive: true });
}

function isDirectory(p) {
  return fs.existsSync(p) && fs.statSync(p).isDirectory();
}

/** The unprivileged account standing in for the image's USER. */
function hostUser() {
  if (process.getuid() !== 0)
    return {
      uid: process.getuid(),
      gid: process.getgid(),
      name: os.userInfo().username,
    };
  const line =
    fs
      .readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('nobody:')) ?? fail('no user nobody');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid), name: 'nobody' };
}

function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function exited(child) {
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
}

/** Runs every stage; returns what the last one leaves for `docker run`. */
function buildStages(stages, scratch) {
  const roots = new Map();
  const final = stages.at(-1);
  let runtime;
  for (const stage of stages) {
    const root = path.join(scratch, stage.name);
    fs.mkdirSync(root, { mode: 0o755 });
    roots.set(stage.name, root);
    const inImage = (p, cwd) => path.join(root, path.posix.resolve(cwd, p));
    const state = {
      cwd: '/',
      env: {},
      user: undefined,
      volumes: [],
      runs: [],
      cmd: undefined,
      health: undefined,
      stop: 'SIGTERM',
    };
    console.log(
      `stage ${stage.name} (FROM ${stage.image}: the base image is not checked)`,
    );
    for (const { op, args } of stage.steps) {
      if (op === 'WORKDIR') {
        state.cwd = path.posix.resolve(state.cwd, args);
        fs.mkdirSync(inImage('.', state.cwd), { recursive: true });
      } else if (op === 'ARG') {
        // A build argument: its default, as `docker build` without --build-arg.
        const [name, ...value] = args.trim().split('=');
        state.env[name] = value.join('=');
      } else if (op === 'ENV') {
        Object.assign(state.env, parseEnv(args));
      } else if (op === 'COPY') {
        const words = args.split(/\s+/);
        const from = words[0].startsWith('--from=')
          ? words.shift().slice('--from='.length)
          : undefined;
        const destination =
          inImage(words.pop(), state.cwd) +
          (args.trim().endsWith('/') ? '/' : '');
        for (const source of words) {
          const origin = from
            ? path.join(roots.get(from) ?? fail(`no stage ${from}`), source)
            : path.join(ROOT, source);
          if (!fs.existsSync(origin)) fail(`COPY ${source}: not there`);
          copyInto(origin, destination);
        }
      } else if (op === 'RUN') {
        if (stage === final) {
          state.runs.push(args);
          continue;
        }
        console.log(`  RUN ${args}`);
        const run = spawnSync('bash', ['-ec', args], {
          cwd: inImage('.', state.cwd),
          stdio: 'inherit',
          env: { ...process.env, ...state.env },
        });
        if (run.status !== 0) fail(`RUN failed (${run.status}): ${args}`);
      } else if (op === 'USER') {
        state.user = args.trim();
      } else if (op === 'VOLUME') {
        state.volumes.push(...JSON.parse(args));
      } else if (op === 'HEALTHCHECK') {
        state.health =
          /\bCMD\s+(.*)$/.exec(args)?.[1] ?? fail(`HEALTHCHECK ${args}`);
      } else if (op === 'STOPSIGNAL') {
        state.stop = args.trim();
      } else if (op === 'CMD') {
        state.cmd = JSON.parse(args);
      }
    }
    if (stage === final) runtime = { ...state, root, inImage };
  }
  if (!runtime.user || runtime.user === 'root') fail('the image runs as root');
  if (!runtime.cmd) fail('no CMD');
  if (!runtime.health) fail('no HEALTHCHECK');
  // The last stage's RUN lines act on the image's own paths: each VOLUME
  // must be created and handed to the USER there, which `start` emulates.
  for (const volume of runtime.volumes) {
    const handed = runtime.runs.some(
      (r) =>
        r.includes(`chown ${runtime.user}:${runtime.user} ${volume}`) &&
        r.includes(`mkdir -p ${volume}`),
    );
    if (!handed)
      fail(
        `VOLUME ${volume} is not created and given to ${runtime.user} in a RUN line`,
      );
  }
  return runtime;
}

/**
 * `docker run` of the last stage with fresh volumes and `extraEnv` over the
 * image's ENV: healthy, an event written and read, a clean stop.
 */
async function start(runtime, label, extraEnv) {
  const { root, inImage } = runtime;
  const user = hostUser();
  const env = {
    PATH: process.env.PATH,
    ...runtime.env,
    LOG_LEVEL: 'warn',
    ...extraEnv,
  };
  const folders = runtime.volumes.map((volume) => {
    const folder = fs.mkdtempSync(path.join(root, 'volume-'));
    fs.chownSync(folder, user.uid, user.gid);
    for (const [key, value] of Object.entries(env))
      if (value === volume) env[key] = folder;
    return folder;
  });
  const port = await freePort();
  // The port is ours to pick, and nothing listens beyond this machine.
  Object.assign(env, { PORT: String(port), HOST: '127.0.0.1' });
  const asUser = {
    cwd: inImage('.', runtime.cwd),
    env,
    uid: user.uid,
    gid: user.gid,
  };
  const child = spawn(
    runtime.cmd[0] === 'node' ? process.execPath : runtime.cmd[0],
    runtime.cmd.slice(1),
    { ...asUser, stdio: 'inherit' },
  );
  const ended = exited(child);
  try {
    const healthy = () =>
      spawnSync('bash', ['-c', runtime.health], {
        ...asUser,
        env: { ...env, PATH: `${path.dirname(process.execPath)}:${env.PATH}` },
      }).status === 0;
    const deadline = Date.now() + 60_000;
    while (!healthy()) {
      if (child.exitCode !== null || Date.now() > deadline)
        fail(`${label}: the container never became healthy`);
      await new Promise((r) => setTimeout(r, 500));
    }
    const base = `http://127.0.0.1:${port}`;
    const created = await fetch(`${base}/events`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(env.EVENTS_WRITE_TOKEN
          ? { authorization: `Bearer ${env.EVENTS_WRITE_TOKEN}` }
          : {}),
      },
      body: '{"title":"image"}',
    });
    if (created.status !== 201)
      fail(`${label}: POST /events answered ${created.status}`);
    const { id } = await created.json();
    const read = await fetch(`${base}/events/${id}`);
    if (read.status !== 200)
      fail(`${label}: GET /events/:id answered ${read.status}`);
    if (folders.some((folder) => fs.readdirSync(folder).length === 0))
      fail(`${label}: nothing written to a volume`);
  } finally {
    child.kill(runtime.stop);
  }
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const { code, signal } = await ended;
  clearTimeout(timer);
  if (code !== 0)
    fail(
      `${label}: did not stop cleanly on ${runtime.stop} (code ${code}, signal ${signal})`,
    );
  console.log(
    `${label}: healthy, served an event as ${user.name} (for USER ${runtime.user}), wrote its volume, stopped cleanly on ${runtime.stop}`,
  );
}

/**
 * What an operator must choose before `docker compose up` (the file's
 * `${NAME:?message}`), when this machine's environment has not.
 */
const OPERATOR_CHOICES = {
  EVENTS_WRITE_TOKEN: `dry-run-${randomBytes(12).toString('hex')}`,
};

/**
 * `${NAME:-default}`, `${NAME:?message}` and `${NAME}` as compose reads them,
 * from our environment.
 */
function interpolate(value) {
  return String(value).replace(
    /\$\{(\w+)(?::([-?])([^}]*))?\}/g,
    (_m, name, kind, text) => {
      if (process.env[name]) return process.env[name];
      if (kind !== '?') return kind === '-' ? text : '';
      return (
        OPERATOR_CHOICES[name] ??
        fail(`compose: ${name} must be set (${text}); the dry run has no value`)
      );
    },
  );
}

/**
 * The compose file's gateway: built from this Dockerfile, started after a
 * healthy PostgreSQL, with the Dockerfile's volume. Its environment runs
 * against this machine's PostgreSQL (reached through `DATABASE_URL`) in a
 * scratch database owned by the role compose creates, the host `postgres`
 * standing for the compose service.
 */
async function composeEnvironment(runtime, adminUrl) {
  const compose = yaml.load(
    fs.readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'),
  );
  const { gateway, postgres } = compose.services ?? {};
  if (!gateway || !postgres) fail('compose: no gateway or postgres service');
  if (gateway.build !== '.' && gateway.build?.context !== '.')
    fail('compose: the gateway is not built from this Dockerfile');
  if (gateway.depends_on?.postgres?.condition !== 'service_healthy')
    fail('compose: the gateway does not wait for a healthy database');
  if (!postgres.healthcheck?.test)
    fail('compose: postgres has no health check');
  if (
    !(postgres.volumes ?? []).some((v) =>
      // postgres:18 and later keep PGDATA under /var/lib/postgresql/<major>.
      /:\/var\/lib\/postgresql(\/data)?$/.test(v),
    )
  )
    fail('compose: postgres keeps its data in no volume');
  for (const volume of runtime.volumes)
    if (!(gateway.volumes ?? []).some((v) => v.endsWith(`:${volume}`)))
      fail(`compose: the gateway's ${volume} is not a volume`);
  const env = Object.fromEntries(
    Object.entries(gateway.environment ?? {}).map(([k, v]) => [
      k,
      interpolate(v),
    ]),
  );
  const pgEnv = Object.fromEntries(
    Object.entries(postgres.environment ?? {}).map(([k, v]) => [
      k,
      interpolate(v),
    ]),
  );
  const url = new URL(env.DATABASE_URL ?? fail('compose: no DATABASE_URL'));
  if (
    url.hostname !== 'postgres' ||
    decodeURIComponent(url.username) !== pgEnv.POSTGRES_USER ||
    url.pathname !== `/${pgEnv.POSTGRES_DB}`
  )
    fail(
      'compose: DATABASE_URL does not name the postgres service, its user and its database',
    );
  const database = `compose_dry_run_${process.pid}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  // DDL takes no bind parameters: identifiers and the literal are quoted.
  const role = `"${pgEnv.POSTGRES_USER.replace(/"/g, '""')}"`;
  const password = `'${(pgEnv.POSTGRES_PASSWORD ?? '').replace(/'/g, "''")}'`;
  const existing = await admin.query(
    'SELECT 1 FROM pg_roles WHERE rolname = $1',
    [pgEnv.POSTGRES_USER],
  );
  const createdRole = existing.rowCount === 0;
  if (createdRole)
    await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD ${password}`);
  await admin.query(`CREATE DATABASE "${database}" OWNER ${role}`);
  const local = new URL(adminUrl);
  url.hostname = local.hostname;
  url.port = local.port;
  url.pathname = `/${database}`;
  env.DATABASE_URL = url.toString();
  return {
    env,
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      if (createdRole) await admin.query(`DROP ROLE ${role}`);
      await admin.end();
    },
  };
}

async function main() {
  const stages = parseDockerfile(
    fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'),
  );
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'dockerfile-dry-run-'));
  fs.chmodSync(scratch, 0o755);
  try {
    const runtime = buildStages(stages, scratch);
    console.log(
      `last stage: its RUN lines emulated (${runtime.runs.join('; ')})`,
    );
    await start(runtime, 'docker run (embedded database)', {});
    const adminUrl = process.env.DATABASE_URL;
    if (!adminUrl) {
      console.log('compose: skipped (no DATABASE_URL to reach a PostgreSQL)');
      return;
    }
    const compose = await composeEnvironment(runtime, adminUrl);
    try {
      await start(runtime, "compose's gateway (PostgreSQL)", compose.env);
    } finally {
      await compose.drop();
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`dockerfile dry run: ${error.message}`);
  process.exit(1);
});
