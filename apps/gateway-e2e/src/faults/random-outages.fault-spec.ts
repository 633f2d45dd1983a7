import { seededRandom } from '@quitanda/testing';

import { startGatewayProcess } from './support/gateway-process';
import type { GatewayProcess } from './support/gateway-process';
import { startFaultCluster } from './support/fault-cluster';
import type { FaultCluster } from './support/fault-cluster';
import { MixedLoad } from './support/mixed-load';
import {
  GATEWAY_ENV,
  SCALE,
  SEED,
  send,
  trackedProject,
  waitFor,
} from './support/scenario';
import { SdkLoad } from './support/sdk-load';
import type { SdkShape } from './support/sdk-load';

/** Short, so that many outages fit in a CI run; the default is 5 s. */
const DB_TIMEOUT_MS = 1_000;
/** Outages per run: 20 in CI, 200 at full size (FAULTS_SCALE=10). */
const OUTAGES = 20 * SCALE;
/** Loops of each load. */
const WORKERS = 2;

/**
 * The database stopped or frozen (SIGSTOP: connections accepted, nothing
 * answered) at many random moments, for random lengths, while SDKs send
 * JavaScript and Node events (whose frames are looked up for source maps
 * under a release that keeps changing, so lookups are in flight when the
 * database goes), Python events with sessions, and every context takes
 * writes: the same gateway process serves throughout and, once the
 * database is back, holds everything it acknowledged exactly once. The
 * seed (FAULTS_SEED) replays the same sequence of outages.
 */
describe('random database outages under load (fault)', () => {
  let cluster: FaultCluster;
  let gw: GatewayProcess | undefined;
  let exitedEarly: number | null | undefined;

  beforeAll(async () => {
    cluster = await startFaultCluster('random');
    gw = await startGatewayProcess({
      ...GATEWAY_ENV,
      DATABASE_URL: cluster.databaseUrl,
      DATA_DIR: cluster.dataDir,
      DB_TIMEOUT_MS: String(DB_TIMEOUT_MS),
      // Every acknowledged event must be stored: no key limit in the way.
      ERROR_TRACKING_RATE_LIMIT_PER_MINUTE: '0',
    });
    gw.exited.then(
      (code) => (exitedEarly = code),
      () => undefined,
    );
  });

  afterAll(async () => {
    gw?.kill('SIGKILL');
    await gw?.exited;
    await cluster?.destroy();
  });

  it(`survives ${OUTAGES} stops and freezes at random moments and stores everything it acknowledged once`, async () => {
    const running = gw as GatewayProcess;
    const url = () => running.url;
    // The primary would replace a worker that died: the one serving must
    // be the one that served first.
    const worker = await running.servingPid();
    expect(worker).not.toBe(running.pid);
    let release = 0;
    const changingRelease = () => `web@1.0.${release}`;
    const sdks: Array<[string, SdkShape]> = [
      ['javascript', { platform: 'javascript', release: changingRelease }],
      ['node', { platform: 'node', release: changingRelease }],
      ['python', { platform: 'python' }],
    ];
    const loads = await Promise.all(
      sdks.map(
        async ([name, shape]) =>
          [name, new SdkLoad(await trackedProject(url()), shape)] as const,
      ),
    );
    const mixed = new MixedLoad(await trackedProject(url()), SEED);
    let done = false;
    const traffic = Promise.all([
      ...loads.map(([, load]) => load.run(WORKERS, url, () => done)),
      mixed.run(WORKERS, url, () => done),
    ]);

    const next = seededRandom(SEED + 33);
    const outages: string[] = [];
    try {
      for (let outage = 0; outage < OUTAGES; outage++) {
        // Let traffic flow a while, a new release now and then, then take
        // the database away in one of the two ways, for a random length.
        const sent = mixed.requests;
        await waitFor(
          async () => mixed.requests > sent,
          20_000,
          'traffic between outages',
        );
        await pause(100 + next() * 900);
        release += 1;
        const frozen = next() < 0.5;
        const lasts = 200 + Math.round(next() * 1_800);
        outages.push(`${frozen ? 'freeze' : 'stop'} ${lasts} ms`);
        await (frozen ? cluster.pg.stall() : cluster.pg.stop());
        try {
          await pause(lasts);
        } finally {
          await (frozen ? cluster.pg.resume() : cluster.pg.start());
        }
        expect(exitedEarly).toBeUndefined();
        expect(await running.servingPid()).toBe(worker);
      }
      // Back for good: the spool drains into the database.
      await waitFor(
        async () => {
          const ready = await send(`${url()}/health/ready`);
          return (
            ready.status === 200 &&
            (JSON.parse(ready.text) as { spool: { events: number } }).spool
              .events === 0
          );
        },
        60_000,
        'the spool to drain once the database stayed up',
      );
    } finally {
      done = true;
      await traffic;
    }
    // Whatever reached the spool after the check above drains too.
    await waitFor(
      async () => {
        const ready = await send(`${url()}/health/ready`);
        return (
          (JSON.parse(ready.text) as { spool: { events: number } }).spool
            .events === 0
        );
      },
      60_000,
      'the last spooled events to drain',
    );

    const verdicts = await Promise.all(
      loads.map(async ([name, load]) => {
        const verdict = await load.verify(cluster.pg, 'random');
        return [name, verdict] as const;
      }),
    );
    const mixedVerdict = await mixed.verify(cluster.pg, 'random');
    console.log(
      `random outages (seed ${SEED}): ${outages.join(', ')}\n` +
        verdicts
          .map(
            ([name, v]) =>
              `${name}: ${v.acknowledged} acknowledged, lost ${v.lost.length}, duplicated ${v.duplicated.length}`,
          )
          .join('\n') +
        `\nmixed writes: ${mixed.requests} tried, ${mixedVerdict.acknowledged} acknowledged, lost ${mixedVerdict.lost.length}, duplicated ${mixedVerdict.duplicated.length}`,
    );
    // One process from start to end: none died and was replaced.
    expect(exitedEarly).toBeUndefined();
    expect(await running.servingPid()).toBe(worker);
    for (const [name, verdict] of verdicts) {
      expect({ name, acknowledged: verdict.acknowledged > 0 }).toEqual({
        name,
        acknowledged: true,
      });
      expect({ name, ...verdict, acknowledged: undefined }).toEqual({
        name,
        acknowledged: undefined,
        lost: [],
        duplicated: [],
        inconsistentErrors: [],
        miscounted: [],
      });
    }
    expect(mixedVerdict.acknowledged).toBeGreaterThan(0);
    expect(mixedVerdict.lost).toEqual([]);
    expect(mixedVerdict.duplicated).toEqual([]);
    expect(mixedVerdict.inconsistentErrors).toEqual([]);
    running.kill('SIGTERM');
    expect(await running.exited).toBe(0);
  });
});

/** The scenario's own timing (how long traffic flows, how long an outage lasts). */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
