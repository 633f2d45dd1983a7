import { startGatewayProcess } from './support/gateway-process';
import type { GatewayProcess } from './support/gateway-process';
import { startFaultCluster } from './support/fault-cluster';
import type { FaultCluster } from './support/fault-cluster';
import {
  GATEWAY_ENV,
  SCALE,
  send,
  trackedProject,
  waitFor,
} from './support/scenario';
import { SdkLoad } from './support/sdk-load';
import type { SdkProject } from './support/sdk-load';

/** Short, so that a stall is told from a slow answer; the default is 5 s. */
const DB_TIMEOUT_MS = 1_500;
/**
 * How long the database is away: 5 s in CI, 30 s at full size (the
 * issue's figure), or FAULTS_OUTAGE_SECONDS.
 */
const OUTAGE_MS =
  1_000 * Number(process.env['FAULTS_OUTAGE_SECONDS'] ?? (SCALE > 1 ? 30 : 5));
const WORKERS = 8;
/** A spool bound that a few envelopes fill. */
const TINY_SPOOL_BYTES = 16 * 1024;

interface SpoolReport {
  events: number;
  bytes: number;
  oldest_age_seconds: number;
}

/**
 * The collector's spool (docs/reliability.md): while the database is
 * stopped or stalled the collector keeps answering 200 from a durable
 * spool on the gateway's disk, and drains it into the database once it is
 * back, after a kill -9 too; a full spool answers 503 with Retry-After.
 */
describe('collector spool through database outages (fault)', () => {
  let cluster: FaultCluster;
  let gw: GatewayProcess | undefined;
  let env: Record<string, string>;
  const figures: string[] = [];

  beforeAll(async () => {
    cluster = await startFaultCluster('spool');
    env = {
      ...GATEWAY_ENV,
      DATABASE_URL: cluster.databaseUrl,
      DATA_DIR: cluster.dataDir,
      DB_TIMEOUT_MS: String(DB_TIMEOUT_MS),
      // Every acknowledged event must be stored: no key limit in the way.
      ERROR_TRACKING_RATE_LIMIT_PER_MINUTE: '0',
    };
    gw = await startGatewayProcess(env);
  });

  afterAll(async () => {
    console.log(
      `collector spool, outages of ${OUTAGE_MS / 1000} s, DB_TIMEOUT_MS=${DB_TIMEOUT_MS}:\n${figures.join('\n')}`,
    );
    gw?.kill('SIGKILL');
    await gw?.exited;
    await cluster?.destroy();
  });

  const url = () => (gw as GatewayProcess).url;

  async function spool(): Promise<{ status: number; spool: SpoolReport }> {
    const ready = await send(`${url()}/health/ready`);
    return {
      status: ready.status,
      spool: (JSON.parse(ready.text) as { spool: SpoolReport }).spool,
    };
  }

  /** Ready again, the spool empty: returns how long draining took. */
  async function drained(): Promise<number> {
    return waitFor(
      async () => {
        const now = await spool().catch(() => undefined);
        return now?.status === 200 && now.spool.events === 0;
      },
      60_000,
      'the spool to drain once the database answered',
    );
  }

  /**
   * Runs the SDK load through `outage` (the database away for OUTAGE_MS),
   * then until the spool has drained.
   */
  async function underLoad(
    project: SdkProject,
    outage: { begin(): Promise<void>; end(): Promise<void> },
  ): Promise<{
    load: SdkLoad;
    during: number;
    drainMs: number;
    peak: SpoolReport;
  }> {
    const load = new SdkLoad(project);
    let done = false;
    const running = load.run(WORKERS, url, () => done);
    let peak: SpoolReport = { events: 0, bytes: 0, oldest_age_seconds: 0 };
    try {
      await waitFor(
        async () => load.acknowledged().length >= 20,
        20_000,
        'warm-up',
      );
      await outage.begin();
      const began = performance.now();
      try {
        await waitFor(
          async () => performance.now() - began >= OUTAGE_MS,
          OUTAGE_MS + 5_000,
          'the outage to last',
        );
        peak = (await spool()).spool;
      } finally {
        await outage.end();
      }
      const ended = performance.now();
      const during = load.sent.filter(
        (s) => s.sentAt >= began && s.sentAt < ended,
      ).length;
      const drainMs = await drained();
      done = true;
      await running;
      // What the load sent after that (spooled while the database was
      // still catching up) drains too before anything is counted.
      await drained();
      return { load, during, drainMs, peak };
    } finally {
      done = true;
      await running;
    }
  }

  async function expectAllStoredOnce(load: SdkLoad, label: string) {
    const statuses = new Map<number, number>();
    for (const s of load.sent)
      statuses.set(s.answer.status, (statuses.get(s.answer.status) ?? 0) + 1);
    const verdict = await load.verify(cluster.pg, 'spool');
    figures.push(
      `${label}: ${load.sent.length} envelopes, answers ${JSON.stringify(Object.fromEntries(statuses))}, ` +
        `lost ${verdict.lost.length}, duplicated ${verdict.duplicated.length}`,
    );
    expect(verdict.acknowledged).toBeGreaterThan(0);
    expect(verdict.lost).toEqual([]);
    expect(verdict.duplicated).toEqual([]);
    expect(verdict.inconsistentErrors).toEqual([]);
    expect(verdict.miscounted).toEqual([]);
  }

  it(`stopped for ${OUTAGE_MS / 1000} s under SDK load: every envelope answered 200, each event stored once after`, async () => {
    const project = await trackedProject(url());
    const { load, during, drainMs, peak } = await underLoad(project, {
      begin: () => cluster.pg.stop(),
      end: () => cluster.pg.start(),
    });
    figures.push(
      `stopped: ${during} envelopes during the outage, spool peak ${peak.events} events / ${peak.bytes} bytes, drained ${Math.round(drainMs)} ms after the restart`,
    );
    expect(during).toBeGreaterThan(0);
    expect(peak.events).toBeGreaterThan(0);
    expect(load.sent.filter((s) => s.answer.status !== 200)).toEqual([]);
    await expectAllStoredOnce(load, 'stopped');
  });

  it(`stalled (SIGSTOP) for ${OUTAGE_MS / 1000} s under SDK load: every envelope answered 200 within the bound, each event stored once after`, async () => {
    const project = await trackedProject(url());
    const { load, during, drainMs, peak } = await underLoad(project, {
      begin: () => cluster.pg.stall(),
      end: () => cluster.pg.resume(),
    });
    const slowest = Math.max(...load.sent.map((s) => s.answer.ms));
    figures.push(
      `stalled: ${during} envelopes during the stall, slowest answer ${Math.round(slowest)} ms, spool peak ${peak.events} events, drained ${Math.round(drainMs)} ms after SIGCONT`,
    );
    expect(during).toBeGreaterThan(0);
    expect(load.sent.filter((s) => s.answer.status !== 200)).toEqual([]);
    expect(slowest).toBeLessThan(DB_TIMEOUT_MS + 1_500);
    await expectAllStoredOnce(load, 'stalled');
  });

  it('killed with -9 mid-outage and restarted: the spool drains, nothing lost, nothing doubled', async () => {
    const project = await trackedProject(url());
    const load = new SdkLoad(project);
    for (let i = 0; i < 5; i++) await load.sendOne(url());
    await cluster.pg.stop();
    let restarted = false;
    try {
      let done = false;
      const running = load.run(WORKERS, url, () => done);
      await waitFor(
        async () => (await spool()).spool.events >= 20,
        20_000,
        'events to be spooled',
      );
      gw?.kill('SIGKILL');
      expect(await gw?.exited).toBeNull();
      done = true;
      await running;
      const spooled = load.acknowledged().length - 5;
      await cluster.pg.start();
      gw = await startGatewayProcess(env);
      restarted = true;
      const drainMs = await drained();
      figures.push(
        `kill -9 mid-outage: ${spooled} envelopes acknowledged from the spool, drained ${Math.round(drainMs)} ms after the restart`,
      );
    } finally {
      if (!restarted) {
        await cluster.pg.start().catch(() => undefined);
        gw = await startGatewayProcess(env);
      }
    }
    await expectAllStoredOnce(load, 'kill -9');
  });

  it('a full spool answers 503 with Retry-After and stores nothing of what it refused', async () => {
    gw?.kill('SIGTERM');
    await gw?.exited;
    gw = await startGatewayProcess({
      ...env,
      ERROR_TRACKING_SPOOL_MAX_BYTES: String(TINY_SPOOL_BYTES),
    });
    const project = await trackedProject(url());
    const load = new SdkLoad(project);
    await load.sendOne(url());
    await cluster.pg.stop();
    const refused = [];
    try {
      for (let i = 0; i < 200 && refused.length < 5; i++) {
        const sent = await load.sendOne(url());
        if (sent.answer.status !== 200) refused.push(sent);
      }
      const full = (await spool()).spool;
      figures.push(
        `full spool: ${load.acknowledged().length - 1} envelopes spooled (${full.bytes} of ${TINY_SPOOL_BYTES} bytes), then ${refused.length} refused`,
      );
      expect(full.bytes).toBeLessThanOrEqual(TINY_SPOOL_BYTES);
    } finally {
      await cluster.pg.start();
    }
    expect(refused.length).toBe(5);
    for (const sent of refused) {
      expect(sent.answer.status).toBe(503);
      expect(sent.answer.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(JSON.parse(sent.answer.text)).toEqual({
        detail: expect.any(String),
      });
    }
    await drained();
    await expectAllStoredOnce(load, 'full spool');
    const stored = await cluster.pg.query<{ id: string }>(
      'spool',
      `SELECT replace(event_id::text, '-', '') AS id FROM error_tracking.events
        WHERE project_id = $1 AND replace(event_id::text, '-', '') = ANY($2)`,
      [project.id, refused.map((s) => s.eventId)],
    );
    expect(stored).toEqual([]);
  });
});
