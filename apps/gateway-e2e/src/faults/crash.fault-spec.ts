import { freePort, seededRandom } from '@quitanda/testing';

import { startGatewayProcess } from './support/gateway-process';
import type { GatewayProcess } from './support/gateway-process';
import { MixedLoad } from './support/mixed-load';
import { startFaultCluster } from './support/fault-cluster';
import type { FaultCluster } from './support/fault-cluster';
import {
  GATEWAY_ENV,
  SCALE,
  SEED,
  trackedProject,
  waitFor,
} from './support/scenario';

const WORKERS = 8;
/** kill -9 this many times (2 in CI; FAULTS_SCALE=10: 20). */
const KILLS = 2 * SCALE;

/**
 * kill -9 at any moment under mixed load of every context: after a restart
 * every write that got a success response is there exactly once, none is
 * there twice, and error aggregates agree with their events.
 */
describe('crash under mixed load (fault)', () => {
  let cluster: FaultCluster;

  beforeAll(async () => {
    cluster = await startFaultCluster('crash');
  });

  afterAll(async () => {
    await cluster?.destroy();
  });

  it(`keeps every acknowledged write exactly once across ${KILLS} kills`, async () => {
    const port = String(await freePort());
    const env = {
      ...GATEWAY_ENV,
      DATABASE_URL: cluster.databaseUrl,
      DATA_DIR: cluster.dataDir,
      PORT: port,
    };
    let gw: GatewayProcess = await startGatewayProcess(env);
    const project = await trackedProject(gw.url);
    const load = new MixedLoad(project, SEED);
    let done = false;
    const running = load.run(
      WORKERS,
      () => gw.url,
      () => done,
    );
    const next = seededRandom(SEED + 1);
    for (let kill = 0; kill < KILLS; kill++) {
      // Writes are being acknowledged (a fresh process's first ones are
      // slow on a busy machine), then load builds up for a while (random,
      // so kills land anywhere).
      const before = load.acknowledged.size;
      await waitFor(
        async () => load.acknowledged.size > before,
        30_000,
        'writes to be acknowledged',
      );
      await new Promise((resolve) => setTimeout(resolve, 300 + next() * 700));
      gw.kill('SIGKILL');
      expect(await gw.exited).toBeNull();
      gw = await startGatewayProcess(env);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    done = true;
    await running;
    gw.kill('SIGTERM');
    expect(await gw.exited).toBe(0);

    const verdict = await load.verify(cluster.pg, 'crash');
    console.log(
      `crash: ${KILLS} kill -9 under load, ${load.requests} writes tried, ` +
        `${verdict.acknowledged} acknowledged, lost ${verdict.lost.length}, duplicated ${verdict.duplicated.length}`,
    );
    expect(verdict.acknowledged).toBeGreaterThan(0);
    expect(verdict.lost).toEqual([]);
    expect(verdict.duplicated).toEqual([]);
    expect(verdict.inconsistentErrors).toEqual([]);
  });
});
