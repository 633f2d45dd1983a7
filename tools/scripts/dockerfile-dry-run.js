#!/usr/bin/env node
// Replays the Dockerfile without a Docker engine (CI machines here have
// none), so a change that breaks the image's build or its start shows up in
// CI: every stage gets its own folder standing in for its filesystem; COPY,
// WORKDIR, ENV and the build stages' RUN lines run as written; the last
// stage starts with its CMD and ENV as an unprivileged user (its USER),
// answers its HEALTHCHECK, serves an event, and stops on its STOPSIGNAL.
//
// What it cannot check is said as it goes: the base image itself, and the
// last stage's RUN lines, which act on absolute paths of the image (they are
// checked to create and hand each VOLUME to the USER, and that is emulated).
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.join(__dirname, '../..');
const INSTRUCTIONS = new Set([
  'FROM',
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

async function main() {
  const stages = parseDockerfile(
    fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'),
  );
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'dockerfile-dry-run-'));
  fs.chmodSync(scratch, 0o755);
  const roots = new Map();
  const final = stages.at(-1);
  let runtime;
  try {
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

    const { root, inImage } = runtime;
    if (!runtime.user || runtime.user === 'root')
      fail('the image runs as root');
    if (!runtime.cmd) fail('no CMD');
    if (!runtime.health) fail('no HEALTHCHECK');
    const user = hostUser();
    // Each VOLUME must be created and handed to the USER by a RUN line.
    const env = { PATH: process.env.PATH, ...runtime.env };
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
      const folder = path.join(root, volume);
      fs.mkdirSync(folder, { recursive: true });
      fs.chownSync(folder, user.uid, user.gid);
      for (const [key, value] of Object.entries(env))
        if (value === volume) env[key] = folder;
    }
    console.log(
      `stage ${stages.at(-1).name}: RUN lines emulated (${runtime.runs.join('; ')}); USER ${runtime.user} played by ${user.name}`,
    );
    const port = await freePort();
    env.PORT = String(port);
    env.HOST = '127.0.0.1';
    env.LOG_LEVEL = 'warn';
    const child = spawn(
      runtime.cmd[0] === 'node' ? process.execPath : runtime.cmd[0],
      runtime.cmd.slice(1),
      {
        cwd: inImage('.', runtime.cwd),
        env,
        uid: user.uid,
        gid: user.gid,
        stdio: 'inherit',
      },
    );
    const ended = exited(child);
    const healthy = () =>
      spawnSync('bash', ['-c', runtime.health], {
        cwd: inImage('.', runtime.cwd),
        env: { ...env, PATH: `${path.dirname(process.execPath)}:${env.PATH}` },
        uid: user.uid,
        gid: user.gid,
      }).status === 0;
    const deadline = Date.now() + 60_000;
    while (!healthy()) {
      if (child.exitCode !== null || Date.now() > deadline)
        fail('the container never became healthy');
      await new Promise((r) => setTimeout(r, 500));
    }
    console.log('HEALTHCHECK passes');
    const base = `http://127.0.0.1:${port}`;
    const created = await fetch(`${base}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"title":"image"}',
    });
    if (created.status !== 201) fail(`POST /events answered ${created.status}`);
    const { id } = await created.json();
    const read = await fetch(`${base}/events/${id}`);
    if (read.status !== 200) fail(`GET /events/:id answered ${read.status}`);
    const stored = runtime.volumes.flatMap((v) =>
      fs.readdirSync(path.join(root, v)),
    );
    if (stored.length === 0) fail('nothing written to the volume');
    child.kill(runtime.stop);
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const { code, signal } = await ended;
    clearTimeout(timer);
    if (code !== 0)
      fail(
        `did not stop cleanly on ${runtime.stop} (code ${code}, signal ${signal})`,
      );
    console.log(
      `served an event as ${user.name}, kept its data in the volume, stopped cleanly on ${runtime.stop}`,
    );
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`dockerfile dry run: ${error.message}`);
  process.exit(1);
});
