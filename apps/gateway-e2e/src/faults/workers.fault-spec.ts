import { request } from 'node:http';
import { Agent } from 'node:http';
import type { Socket } from 'node:net';

import { freePort } from '@quitanda/testing';

import { startFaultCluster } from './support/fault-cluster';
import type { FaultCluster } from './support/fault-cluster';
import { startGatewayProcess } from './support/gateway-process';
import type { GatewayProcess, LogLine } from './support/gateway-process';
import { GATEWAY_ENV, WRITE_TOKEN } from './support/scenario';

/** Concurrent clients, each on one keep-alive connection at a time. */
const CLIENTS = 8;
/**
 * Requests per connection: clients reconnect now and then, as behind a
 * load balancer, so new connections reach a replacement worker.
 */
const REQUESTS_PER_CONNECTION = 25;

interface Attempt {
  readonly id: string;
  readonly socket: number;
  readonly startedAt: number;
  ok: boolean;
}

/** Steady writes through keep-alive connections, every attempt recorded. */
class SteadyLoad {
  readonly attempts: Attempt[] = [];
  private readonly sockets = new WeakMap<Socket, number>();
  private nextSocket = 0;
  private stopped = false;
  private readonly running: Promise<void>[] = [];

  constructor(private readonly port: number) {
    for (let client = 0; client < CLIENTS; client++)
      this.running.push(this.client(client));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.running);
  }

  private async client(client: number): Promise<void> {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    for (let n = 0; !this.stopped; n++) {
      const ok = await this.post(
        agent,
        `w${client}-${n}`,
        n % REQUESTS_PER_CONNECTION === REQUESTS_PER_CONNECTION - 1,
      );
      // A refused or reset connection: try again without spinning.
      if (!ok) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    agent.destroy();
  }

  private post(agent: Agent, id: string, last: boolean): Promise<boolean> {
    const body = JSON.stringify({ title: `cluster ${id}` });
    return new Promise((resolve) => {
      const attempt: Attempt = {
        id,
        socket: -1,
        startedAt: Date.now(),
        ok: false,
      };
      this.attempts.push(attempt);
      const req = request(
        {
          agent,
          port: this.port,
          host: '127.0.0.1',
          method: 'POST',
          path: '/events',
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            authorization: `Bearer ${WRITE_TOKEN}`,
            'x-request-id': id,
            ...(last ? { connection: 'close' } : {}),
          },
        },
        (res) => {
          res.resume();
          res.once('end', () => {
            attempt.ok = res.statusCode === 201;
            resolve(attempt.ok);
          });
          res.once('error', () => resolve(false));
        },
      );
      req.once('socket', (socket: Socket) => {
        let known = this.sockets.get(socket);
        if (known === undefined) {
          known = this.nextSocket++;
          this.sockets.set(socket, known);
        }
        (attempt as { socket: number }).socket = known;
      });
      req.once('error', () => resolve(false));
      req.end(body);
    });
  }
}

/** Which process answered each request id (from the request log lines). */
function servedBy(lines: readonly LogLine[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const line of lines)
    if (typeof line['reqId'] === 'string')
      map.set(line['reqId'], Number(line['pid']));
  return map;
}

async function until(
  what: string,
  condition: () => boolean,
  gateway: GatewayProcess,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline)
      throw new Error(
        `no ${what} within ${timeoutMs} ms:\n${gateway.output()}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * WORKERS=2 on one port: a worker killed with -9 under steady load costs
 * only the requests on its own connections, the primary forks a
 * replacement that serves, and SIGTERM to the primary drains every worker
 * and exits 0.
 */
describe('a cluster of gateway workers (fault)', () => {
  let database: FaultCluster;
  let gateway: GatewayProcess | undefined;
  let load: SteadyLoad | undefined;
  let second: GatewayProcess | undefined;

  beforeAll(async () => {
    database = await startFaultCluster('workers');
  });

  afterAll(async () => {
    await load?.stop();
    // The workers go with their primary (the cluster's IPC channel closes).
    gateway?.kill('SIGKILL');
    second?.kill('SIGKILL');
    await database?.destroy();
  });

  it('survives a worker killed with -9: no failed request beyond its own connections, a replacement serves, SIGTERM drains all', async () => {
    const port = await freePort();
    gateway = await startGatewayProcess({
      ...GATEWAY_ENV,
      DATABASE_URL: database.databaseUrl,
      DATA_DIR: database.dataDir,
      PORT: String(port),
      WORKERS: '2',
      LOG_LEVEL: 'info',
    });
    const running = gateway;
    const workerPids = () =>
      new Set(
        running.lines
          .filter((line) => line['msg'] === 'Quitanda is listening')
          .map((line) => Number(line['pid'])),
      );
    await until('two workers', () => workerPids().size === 2, running);
    expect(workerPids()).not.toContain(running.pid);

    load = new SteadyLoad(port);
    const servers = () => new Set(servedBy(running.lines).values());
    // Request lines come in 4 KiB batches: enough load to see both.
    await until(
      'requests on both workers',
      () => servers().size === 2,
      running,
    );

    const first = workerPids();
    const [victim] = [...first];
    const killedAt = Date.now();
    process.kill(victim, 'SIGKILL');
    await until('a replacement worker', () => workerPids().size === 3, running);
    // The new pid, whether or not its first requests were logged before
    // its "listening" line (each process writes its own batches).
    const [replacement] = [...workerPids()].filter((pid) => !first.has(pid));
    await until(
      'requests served by the replacement',
      () => servers().has(replacement),
      running,
    );
    await load.stop();

    running.kill('SIGTERM');
    expect(await running.exited).toBe(0);
    const messages = running.lines.map((line) => line['msg']);
    expect(messages).toContain('Worker exited; starting a replacement');
    expect(messages.filter((msg) => msg === 'Stopped')).toHaveLength(3);

    const served = servedBy(running.lines);
    const socketsOf = new Map<number, number>();
    for (const attempt of load.attempts) {
      const pid = served.get(attempt.id);
      if (attempt.ok && pid !== undefined) socketsOf.set(attempt.socket, pid);
    }
    const failed = load.attempts.filter((attempt) => !attempt.ok);
    // A failed request was on a connection the killed worker served, or on
    // one that never got an answer and was opened before the kill.
    const beyond = failed.filter((attempt) => {
      const pid = socketsOf.get(attempt.socket);
      return pid === undefined ? attempt.startedAt > killedAt : pid !== victim;
    });
    console.log(
      `workers: ${load.attempts.length} requests, ${failed.length} failed ` +
        `(on the killed worker's connections), ${beyond.length} beyond them`,
    );
    expect(beyond).toEqual([]);
    expect(failed.length).toBeLessThanOrEqual(CLIENTS);
    expect(
      load.attempts.filter((attempt) => attempt.ok).length,
    ).toBeGreaterThan(100);
  });

  it('runs one worker under its primary by default: killed with -9, it is replaced and serves on the same port', async () => {
    const port = await freePort();
    const alone = await startGatewayProcess({
      ...GATEWAY_ENV,
      DATABASE_URL: database.databaseUrl,
      DATA_DIR: database.dataDir,
      PORT: String(port),
      LOG_LEVEL: 'info',
    });
    second = alone;
    const workerPids = () =>
      alone.lines
        .filter((line) => line['msg'] === 'Quitanda is listening')
        .map((line) => Number(line['pid']));
    await until('the worker', () => workerPids().length === 1, alone);
    const [first] = workerPids();
    expect(first).not.toBe(alone.pid);

    process.kill(first, 'SIGKILL');
    await until('a replacement', () => workerPids().length === 2, alone);
    const answer = await fetch(`http://127.0.0.1:${port}/events`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${WRITE_TOKEN}`,
      },
      body: JSON.stringify({ title: 'after the replacement' }),
    });
    // The killed worker is gone: the replacement answered.
    expect(answer.status).toBe(201);
    alone.kill('SIGTERM');
    expect(await alone.exited).toBe(0);
  });

  it('stops with exit 0 on a SIGTERM that finds a worker still booting', async () => {
    const booting = await startGatewayProcess({
      ...GATEWAY_ENV,
      DATABASE_URL: database.databaseUrl,
      DATA_DIR: database.dataDir,
      PORT: String(await freePort()),
      WORKERS: '2',
      LOG_LEVEL: 'info',
    });
    second = booting;
    // The primary forks the second worker as it logs this line; that worker
    // is still loading when the signal reaches it.
    await until(
      'the first worker serving',
      () =>
        booting.lines.some((line) =>
          String(line['msg']).startsWith('First worker is serving'),
        ),
      booting,
    );
    booting.kill('SIGTERM');
    expect(await booting.exited).toBe(0);
  });
});
