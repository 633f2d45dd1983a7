import { seededRandom } from '@quitanda/testing';

import { startGatewayProcess } from './support/gateway-process';
import { KeepAliveClient } from './support/keep-alive-client';
import type { Exchange } from './support/keep-alive-client';
import { startFaultCluster } from './support/fault-cluster';
import type { FaultCluster } from './support/fault-cluster';
import { GATEWAY_ENV, SCALE, SEED, WRITE_TOKEN } from './support/scenario';

const CLIENTS = 16;
const SHUTDOWN_TIMEOUT_MS = 10_000;
/** How long the signal may take to reach the process and be acted on. */
const SIGNAL_SLACK_MS = 100;

/**
 * SIGTERM under load from keep-alive clients (contract, "Reliability"):
 * readiness 503 at once, the listener stops accepting, every response from
 * then on carries `Connection: close`, connections close, in-flight
 * requests finish, and the process exits 0 well within the timeout.
 */
describe('SIGTERM with keep-alive clients (fault)', () => {
  let cluster: FaultCluster;

  beforeAll(async () => {
    cluster = await startFaultCluster('sigterm');
  });

  afterAll(async () => {
    await cluster?.destroy();
  });

  it('drains and exits 0, losing no acknowledged write', async () => {
    const gw = await startGatewayProcess({
      ...GATEWAY_ENV,
      DATABASE_URL: cluster.databaseUrl,
      DATA_DIR: cluster.dataDir,
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      LOG_LEVEL: 'info',
    });
    const next = seededRandom(SEED);
    const clients = Array.from(
      { length: CLIENTS },
      () => new KeepAliveClient(gw.url),
    );
    const readiness = new KeepAliveClient(gw.url);
    const exchanges: Array<Exchange & { kind: string }> = [];
    const created: string[] = [];
    let stop = false;
    let signalledAt = Infinity;

    const write = async (client: KeepAliveClient) => {
      const kind = next() < 0.6 ? 'write' : 'read';
      const res =
        kind === 'write'
          ? await client.send(
              'POST',
              '/events',
              {
                'content-type': 'application/json',
                authorization: `Bearer ${WRITE_TOKEN}`,
              },
              JSON.stringify({ title: `sigterm ${Math.floor(next() * 1e9)}` }),
            )
          : await client.send('GET', '/events?limit=5');
      exchanges.push({ ...res, kind });
      if (kind === 'write' && res.status === 201)
        created.push((JSON.parse(res.body) as { id: string }).id);
      return res;
    };
    const loops = clients.map(async (client) => {
      // Each client keeps going until its connection is refused or closed
      // (that is the point) or the test stops it.
      while (!stop) {
        const res = await write(client);
        if (res.status === 0 && res.sentAt > signalledAt) break;
      }
    });
    const probes = (async () => {
      while (!stop) {
        const res = await readiness.send('GET', '/health/ready');
        exchanges.push({ ...res, kind: 'ready' });
        if (res.status === 0 && res.sentAt > signalledAt) break;
      }
    })();

    // Load first, then the signal, while every client is busy.
    const warm = 1_000 * SCALE;
    await new Promise((resolve) => setTimeout(resolve, warm));
    signalledAt = performance.now();
    gw.kill('SIGTERM');
    const code = await gw.exited;
    const exitedAfterMs = performance.now() - signalledAt;
    stop = true;
    await Promise.all([...loops, probes]);
    for (const client of [...clients, readiness]) client.close();

    const late = exchanges.filter(
      (e) => e.sentAt > signalledAt + SIGNAL_SLACK_MS,
    );
    const before = exchanges.filter((e) => e.sentAt < signalledAt);
    // In flight at the signal, answered after it.
    const inFlight = before.filter(
      (e) => e.status !== 0 && e.receivedAt > signalledAt + SIGNAL_SLACK_MS,
    );
    const answeredLate = [...late.filter((e) => e.status !== 0), ...inFlight];
    console.log(
      `SIGTERM: ${exchanges.length} requests over ${CLIENTS + 1} keep-alive connections, ` +
        `${before.length} sent before the signal (${before.filter((e) => e.status === 0).length} unanswered), ` +
        `${inFlight.length} in flight at it, ${late.length - late.filter((e) => e.status !== 0).length} refused or closed after it, ` +
        `${answeredLate.length} answered after it, exit ${code} after ${Math.round(exitedAfterMs)} ms`,
    );

    expect(code).toBe(0);
    expect(exitedAfterMs).toBeLessThan(SHUTDOWN_TIMEOUT_MS / 3);
    // In-flight work finished: every request sent before the signal got its answer.
    expect(before.filter((e) => e.status === 0)).toEqual([]);
    expect(before.length).toBeGreaterThan(CLIENTS);
    // From then on: not ready, and every answer closes its connection.
    expect(
      answeredLate.filter((e) => e.kind === 'ready' && e.status !== 503),
    ).toEqual([]);
    expect(answeredLate.filter((e) => e.connection !== 'close')).toEqual([]);
    // The listener stopped: nothing is answered long after the signal.
    expect(answeredLate.filter((e) => e.sentAt > signalledAt + 1_000)).toEqual(
      [],
    );
    expect(
      gw.lines.some((l) => l['msg'] === 'Shutdown timed out; exiting'),
    ).toBe(false);
    // Every acknowledged write is there, once.
    const stored = await cluster.pg.query<{ n: string }>(
      'sigterm',
      'SELECT count(*) AS n FROM events.events WHERE id = ANY($1::uuid[])',
      [created],
    );
    expect(Number(stored[0]?.n)).toBe(new Set(created).size);
  });
});
