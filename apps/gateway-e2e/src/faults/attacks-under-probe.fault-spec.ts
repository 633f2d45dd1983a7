import { connect } from 'node:net';
import type { Socket } from 'node:net';

import { zstdOneByteRleFrame } from '@quitanda/testing';

import { startFaultCluster } from './support/fault-cluster';
import type { FaultCluster } from './support/fault-cluster';
import { startGatewayProcess } from './support/gateway-process';
import type { GatewayProcess } from './support/gateway-process';
import {
  APP_AUTH,
  APP_KEY,
  GATEWAY_ENV,
  SCALE,
  postBody,
  probeLive,
  send,
  trackedProject,
} from './support/scenario';

/** How long each attack runs: 2 s in CI, more at full size. */
const PHASE_MS = 2_000 * Math.min(SCALE, 5);
/**
 * A probe slower than this is a stalled event loop, not noise: the attacks
 * held it for seconds before their fixes. The figure itself is reported.
 */
const STALL_MS = 2_000;
const ATTACKER = '203.0.113.7';
const COLLECTOR = '/api/v4/error_tracking/collector/api/1/envelope/';

/**
 * A raw request: `head`, then `bytes`, then one more of `drip` every
 * `everyMs` (none when undefined) until `stopAt` or the gateway answers.
 * Resolves with the status it answered (0: none, or closed).
 */
function rawRequest(
  url: string,
  head: string,
  bytes: Buffer,
  stopAt: number,
  drip?: { byte: Buffer; everyMs: number },
): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    let answer = '';
    let timer: NodeJS.Timeout | undefined;
    const socket: Socket = connect(Number(port), hostname, () => {
      socket.write(head);
      socket.write(bytes);
      if (drip)
        timer = setInterval(() => {
          if (!socket.destroyed) socket.write(drip.byte);
        }, drip.everyMs);
    });
    const done = () => {
      clearInterval(timer);
      clearTimeout(deadline);
      socket.destroy();
      resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0));
    };
    const deadline = setTimeout(done, Math.max(0, stopAt - Date.now()));
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
    });
    socket.on('close', done);
    socket.on('error', () => undefined);
  });
}

/** Starts `once` again and again, `parallel` at a time, until `stopAt`. */
async function burst(
  stopAt: number,
  parallel: number,
  once: (n: number) => Promise<number>,
): Promise<number[]> {
  const statuses: number[] = [];
  let n = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (Date.now() < stopAt) statuses.push(await once(n++));
    }),
  );
  return statuses;
}

interface Attack {
  readonly name: string;
  /** The statuses the attack's requests may get (0: cut or left open). */
  readonly expected: readonly number[];
  run(url: string, stopAt: number): Promise<number[]>;
}

const ATTACKS: Attack[] = [
  {
    // Finding 1: 64 KB of zstd that made the decoder copy 8 MiB 16,000 times.
    name: 'zstd RLE bombs without a key',
    expected: [400, 401],
    run: (url, stopAt) => {
      const bomb = zstdOneByteRleFrame(16_000, 23);
      return burst(stopAt, 4, () =>
        postBody(url, COLLECTOR, { 'content-encoding': 'zstd' }, bomb),
      );
    },
  },
  {
    // Finding 2: six bytes (an 8 MiB window) that reserved the whole body
    // budget, now cut by the body rate floor (408).
    name: 'zstd frame headers left open',
    expected: [0, 408],
    run: (url, stopAt) =>
      burst(stopAt, 8, () =>
        rawRequest(
          url,
          `POST ${COLLECTOR} HTTP/1.1\r\nHost: x\r\nContent-Encoding: zstd\r\nTransfer-Encoding: chunked\r\n\r\n6\r\n`,
          Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x68, 0x0d, 0x0a]),
          stopAt,
        ),
      ),
  },
  {
    // Finding 2's slowloris: a body at a byte every 200 ms is cut (408)
    // once the grace is over; the attacker comes straight back.
    name: 'bodies trickled below the minimum rate',
    expected: [408],
    run: (url, stopAt) =>
      burst(stopAt, 8, () =>
        rawRequest(
          url,
          `POST /appdata/${APP_KEY}/product HTTP/1.1\r\nHost: x\r\nAuthorization: ${APP_AUTH}\r\nContent-Type: application/json\r\nContent-Length: 65536\r\n\r\n`,
          Buffer.from('{"name":"'),
          stopAt + 5_000,
          { byte: Buffer.from('a'), everyMs: 200 },
        ),
      ),
  },
  {
    // Findings 3 and 5: mail to a list of addresses, a reset link on the
    // attacker's host; both refused before any mail is sent.
    name: 'signups to address lists and resets on a forged host',
    expected: [204, 400, 429],
    run: (url, stopAt) =>
      burst(stopAt, 4, async (n) => {
        const headers = {
          authorization: APP_AUTH,
          'x-forwarded-for': ATTACKER,
        };
        const answer =
          n % 2 === 0
            ? await send(`${url}/user/${APP_KEY}`, {
                method: 'POST',
                headers,
                json: {
                  username: `relay-${n}`,
                  password: 'relay-password-1',
                  email: 'v0@example.com, v1@example.com, v2@example.com',
                },
              })
            : await send(
                `${url}/rpc/${APP_KEY}/relay-0/user-password-reset-initiate`,
                {
                  method: 'POST',
                  headers: { ...headers, host: 'attacker.example:8080' },
                },
              );
        return answer.status;
      }),
  },
  {
    // Finding 6: refused writes that declared collections until the quota.
    name: 'refused writes to undeclared collections',
    expected: [401, 403, 404],
    run: (url, stopAt) =>
      burst(stopAt, 4, async (n) => {
        const answer = await send(`${url}/appdata/${APP_KEY}/spam${n}`, {
          method: 'POST',
          headers: { authorization: APP_AUTH, 'x-forwarded-for': ATTACKER },
          json: { n },
        });
        return answer.status;
      }),
  },
];

/**
 * The gateway's own longest event-loop delay since the last read, in ms
 * (prom-client resets its histogram on each scrape): what the attack cost
 * the server, apart from this busy test process's own delays.
 */
async function eventLoopLagMaxMs(gw: GatewayProcess): Promise<number> {
  const metrics = await send(`${gw.url}/metrics`);
  const seconds = /^nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(
    metrics.text,
  )?.[1];
  return Number(seconds ?? Number.NaN) * 1000;
}

interface Phase {
  readonly attack: string;
  readonly lagMaxMs: number;
  readonly statuses: number[];
  readonly probes: Array<{ status: number; ms: number }>;
  readonly signup: number;
}

/**
 * One attack for PHASE_MS while `/health/live` is asked every 100 ms (each
 * probe on a connection of its own) and, halfway, a user of another address
 * signs up.
 */
async function underProbe(
  gw: GatewayProcess,
  attack: Attack,
  index: number,
): Promise<Phase> {
  await eventLoopLagMaxMs(gw);
  const probes: Array<{ status: number; ms: number }> = [];
  const inFlight: Array<Promise<void>> = [];
  const timer = setInterval(() => {
    inFlight.push(probeLive(gw.url).then((answer) => void probes.push(answer)));
  }, 100);
  const stopAt = Date.now() + PHASE_MS;
  const attacking = attack.run(gw.url, stopAt);
  await new Promise((resolve) => setTimeout(resolve, PHASE_MS / 2));
  const signup = await send(`${gw.url}/user/${APP_KEY}`, {
    method: 'POST',
    headers: {
      authorization: APP_AUTH,
      'x-forwarded-for': `198.51.100.${index + 1}`,
    },
    json: { username: `legit-${index}`, password: 'legit-password-1' },
  });
  const statuses = await attacking;
  clearInterval(timer);
  await Promise.all(inFlight);
  return {
    attack: attack.name,
    lagMaxMs: await eventLoopLagMaxMs(gw),
    statuses,
    probes,
    signup: signup.status,
  };
}

/**
 * Issue #34's attacks, one after another against one gateway process: each
 * gets only its refusal, `/health/live` keeps answering, and a legitimate
 * signup from another address succeeds while it runs. The slowest probe
 * of each is reported beside the unloaded probe's median.
 */
describe('the second review attacks, under a probe (fault)', () => {
  let cluster: FaultCluster;
  let gw: GatewayProcess | undefined;

  beforeAll(async () => {
    cluster = await startFaultCluster('attacks-under-probe');
    gw = await startGatewayProcess({
      ...GATEWAY_ENV,
      DATABASE_URL: cluster.databaseUrl,
      DATA_DIR: cluster.dataDir,
      TRUST_PROXY: 'true',
      HTTP_BODY_RATE_GRACE_MS: '500',
    });
    // The collector's project 1 exists, as on a real instance.
    await trackedProject(gw.url);
  });

  afterAll(async () => {
    gw?.kill('SIGTERM');
    await gw?.exited;
    await cluster?.destroy();
  });

  it('refuses each attack, answers every probe and signs a user up meanwhile', async () => {
    const running = gw as GatewayProcess;
    const idle: number[] = [];
    for (let i = 0; i < 10; i++) idle.push((await probeLive(running.url)).ms);
    idle.sort((a, b) => a - b);
    const phases: Phase[] = [];
    for (const [index, attack] of ATTACKS.entries())
      phases.push(await underProbe(running, attack, index));

    const idleMedian = idle[5] ?? 0;
    console.log(
      `attacks under a probe every 100 ms (${PHASE_MS} ms each; idle probe ${idleMedian.toFixed(1)} ms):\n` +
        phases
          .map((phase) => {
            const slowest = Math.max(...phase.probes.map((p) => p.ms));
            const counts = new Map<number, number>();
            for (const status of phase.statuses)
              counts.set(status, (counts.get(status) ?? 0) + 1);
            return (
              `  ${phase.attack}: ${phase.statuses.length} requests ` +
              `(${[...counts].map(([s, c]) => `${s}: ${c}`).join(', ')}); ` +
              `${phase.probes.length} probes, slowest ${slowest.toFixed(1)} ms ` +
              `(+${(slowest - idleMedian).toFixed(1)}); gateway event loop held up at most ` +
              `${phase.lagMaxMs.toFixed(1)} ms; signup ${phase.signup}`
            );
          })
          .join('\n'),
    );
    for (const [index, phase] of phases.entries()) {
      const attack = ATTACKS[index] as Attack;
      expect({ attack: phase.attack, signup: phase.signup }).toEqual({
        attack: attack.name,
        signup: 201,
      });
      expect(phase.statuses.length).toBeGreaterThan(0);
      const unexpected = phase.statuses.filter(
        (status) => !attack.expected.includes(status),
      );
      expect({ attack: phase.attack, unexpected }).toEqual({
        attack: attack.name,
        unexpected: [],
      });
      expect(phase.probes.length).toBeGreaterThan(PHASE_MS / 200);
      expect(phase.probes.every((probe) => probe.status === 200)).toBe(true);
      expect(phase.lagMaxMs).toBeGreaterThan(0);
      expect(Math.max(...phase.probes.map((p) => p.ms))).toBeLessThan(STALL_MS);
    }
  });
});
