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
/**
 * The long outages: 5 s in CI, 30 s at full size (the issue's figure), or
 * FAULTS_OUTAGE_SECONDS.
 */
const LONG_MS =
  1_000 * Number(process.env['FAULTS_OUTAGE_SECONDS'] ?? (SCALE > 1 ? 30 : 5));
/** Loops of each load. */
const WORKERS = 2;

interface Outage {
  readonly frozen: boolean;
  readonly ms: number;
}

/**
 * The database stopped or frozen (SIGSTOP: connections accepted, nothing
 * answered) while SDKs send JavaScript and Node events (whose frames are
 * looked up for source maps under a release that changes at every
 * outage, so lookups are in flight when the database goes), Python events
 * with sessions, and every context takes writes: the same gateway process
 * serves throughout and, once the database is back, holds everything it
 * acknowledged exactly once. The seed (FAULTS_SEED) replays the same
 * sequence of outages.
 */
describe('database outages under SDK load (fault)', () => {
  let cluster: FaultCluster;
  let gw: GatewayProcess | undefined;
  let exitedEarly: number | null | undefined;
  let worker: number;

  beforeAll(async () => {
    cluster = await startFaultCluster('outages');
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
    // The primary would replace a worker that died: the one serving must
    // be the one that served first.
    worker = await gw.servingPid();
  });

  afterAll(async () => {
    gw?.kill('SIGKILL');
    await gw?.exited;
    await cluster?.destroy();
  });

  const url = () => (gw as GatewayProcess).url;

  async function expectSameProcess(): Promise<void> {
    expect(exitedEarly).toBeUndefined();
    expect(await (gw as GatewayProcess).servingPid()).toBe(worker);
  }

  async function spooledEvents(): Promise<number | undefined> {
    const ready = await send(`${url()}/health/ready`);
    if (ready.status !== 200) return undefined;
    return (JSON.parse(ready.text) as { spool: { events: number } }).spool
      .events;
  }

  /**
   * Runs every load through `outages` (each after traffic has flowed a
   * while), waits for the spool to drain, and checks what was stored.
   */
  async function underLoad(
    label: string,
    outages: readonly Outage[],
    gapMs: () => number,
  ): Promise<void> {
    let release = 0;
    const changingRelease = () => `web@1.${label.length}.${release}`;
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
    try {
      for (const outage of outages) {
        const sent = mixed.requests;
        await waitFor(
          async () => mixed.requests > sent,
          20_000,
          'traffic between outages',
        );
        await pause(gapMs());
        release += 1;
        await (outage.frozen ? cluster.pg.stall() : cluster.pg.stop());
        try {
          await pause(outage.ms);
        } finally {
          await (outage.frozen ? cluster.pg.resume() : cluster.pg.start());
        }
        await expectSameProcess();
      }
      await waitFor(
        async () => (await spooledEvents()) === 0,
        60_000,
        'the spool to drain once the database stayed up',
      );
    } finally {
      done = true;
      await traffic;
    }
    // What reached the spool after the check above drains too.
    await waitFor(
      async () => (await spooledEvents()) === 0,
      60_000,
      'the last spooled events to drain',
    );

    const verdicts = await Promise.all(
      loads.map(
        async ([name, load]) =>
          [name, await load.verify(cluster.pg, 'outages')] as const,
      ),
    );
    const mixedVerdict = await mixed.verify(cluster.pg, 'outages');
    console.log(
      `${label} (seed ${SEED}): ${outages.map((o) => `${o.frozen ? 'freeze' : 'stop'} ${o.ms} ms`).join(', ')}\n` +
        verdicts
          .map(
            ([name, v]) =>
              `${name}: ${v.acknowledged} acknowledged, lost ${v.lost.length}, duplicated ${v.duplicated.length}`,
          )
          .join('\n') +
        `\nmixed writes: ${mixed.requests} tried, ${mixedVerdict.acknowledged} acknowledged, lost ${mixedVerdict.lost.length}, duplicated ${mixedVerdict.duplicated.length}`,
    );
    await expectSameProcess();
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
  }

  it(`survives ${OUTAGES} stops and freezes at random moments and stores everything it acknowledged once`, async () => {
    const next = seededRandom(SEED + 33);
    const outages = Array.from({ length: OUTAGES }, () => ({
      frozen: next() < 0.5,
      ms: 200 + Math.round(next() * 1_800),
    }));
    await underLoad('random outages', outages, () => 100 + next() * 900);
  });

  it(`survives a ${LONG_MS / 1000} s stop, then a ${LONG_MS / 1000} s freeze, and stores everything it acknowledged once`, async () => {
    await underLoad(
      'long outages',
      [
        { frozen: false, ms: LONG_MS },
        { frozen: true, ms: LONG_MS },
      ],
      () => 1_000,
    );
  });

  it('stops cleanly after them all', async () => {
    const running = gw as GatewayProcess;
    running.kill('SIGTERM');
    expect(await running.exited).toBe(0);
  });
});

/** The scenario's own timing (how long traffic flows, how long an outage lasts). */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
