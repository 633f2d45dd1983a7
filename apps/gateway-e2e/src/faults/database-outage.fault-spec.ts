import { startGatewayProcess } from './support/gateway-process';
import type { GatewayProcess } from './support/gateway-process';
import { startFaultCluster } from './support/fault-cluster';
import type { FaultCluster } from './support/fault-cluster';
import {
  APP_KEY,
  collectorUrl,
  GATEWAY_ENV,
  MASTER_AUTH,
  ROOT_TOKEN,
  send,
  trackedProject,
  waitFor,
  WRITE_TOKEN,
} from './support/scenario';

/** Short in the test, so that the bound is visible; the default is 5 s. */
const DB_TIMEOUT_MS = 1_500;
/** What "bounded" means here: the timeout plus scheduling slack. */
const BOUND_MS = DB_TIMEOUT_MS + 1_500;

/**
 * Database stopped, or stalled (its processes SIGSTOPped: connections are
 * accepted, nothing is answered): every call answers within a bound, in its
 * context's own error format (the collector: 200 from its spool), and the
 * gateway recovers without a restart.
 */
describe('database outage (fault)', () => {
  let cluster: FaultCluster;
  let gw: GatewayProcess;
  let project: { id: number; publicKey: string };
  const acknowledged: string[] = [];
  const figures: string[] = [];

  beforeAll(async () => {
    cluster = await startFaultCluster('outage');
    gw = await startGatewayProcess({
      ...GATEWAY_ENV,
      DATABASE_URL: cluster.databaseUrl,
      DATA_DIR: cluster.dataDir,
      DB_TIMEOUT_MS: String(DB_TIMEOUT_MS),
    });
    project = await trackedProject(gw.url);
  });

  afterAll(async () => {
    console.log(
      `database outage, DB_TIMEOUT_MS=${DB_TIMEOUT_MS}:\n${figures.join('\n')}`,
    );
    gw?.kill('SIGKILL');
    await gw?.exited;
    await cluster?.destroy();
  });

  /** One call of each context, plus readiness, all at once. */
  async function everyContext(label: string) {
    const [ready, collector, events, marketplace, gitlab] = await Promise.all([
      send(`${gw.url}/health/ready`),
      send(collectorUrl(gw.url, project), {
        method: 'POST',
        json: { message: `during ${label}` },
      }),
      send(`${gw.url}/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${WRITE_TOKEN}` },
        json: { title: `during ${label}` },
      }),
      send(`${gw.url}/appdata/${APP_KEY}/product`, {
        headers: { authorization: MASTER_AUTH },
      }),
      send(`${gw.url}/api/v4/projects/${project.id}/issues`, {
        headers: { 'private-token': ROOT_TOKEN },
      }),
    ]);
    if (collector.status === 200)
      acknowledged.push((JSON.parse(collector.text) as { id: string }).id);
    return { ready, collector, events, marketplace, gitlab };
  }

  function expectBoundedUnavailable(
    label: string,
    answers: Awaited<ReturnType<typeof everyContext>>,
  ): void {
    figures.push(
      `${label}: ${Object.entries(answers)
        .map(([name, a]) => `${name} ${a.status} in ${Math.round(a.ms)} ms`)
        .join(', ')}`,
    );
    const summary = Object.fromEntries(
      Object.entries(answers).map(([name, a]) => [
        name,
        { status: a.status, bounded: a.ms < BOUND_MS },
      ]),
    );
    expect(summary).toEqual({
      ready: { status: 503, bounded: true },
      // Spooled (collector-spool.fault-spec.ts has the spool's own scenarios).
      collector: { status: 200, bounded: true },
      events: { status: 503, bounded: true },
      // Kinvey's own answer to a server-side failure: retry later.
      marketplace: { status: 500, bounded: true },
      gitlab: { status: 503, bounded: true },
    });
    const { collector, events, marketplace, gitlab } = answers;
    expect(JSON.parse(collector.text)).toEqual({ id: expect.any(String) });
    expect(events.headers.get('content-type')).toMatch(/problem\+json/);
    expect(JSON.parse(marketplace.text)).toEqual({
      error: 'KinveyInternalErrorRetry',
      description: expect.any(String),
      debug: expect.any(String),
    });
    expect(JSON.parse(gitlab.text)).toHaveProperty('message');
  }

  /** Every context serves again (the collector after its 1 s cool-down). */
  async function expectRecovered(): Promise<void> {
    const ms = await waitFor(
      async () => {
        const after = await everyContext('recovery');
        return (
          after.ready.status === 200 &&
          after.collector.status === 200 &&
          after.events.status === 201 &&
          after.marketplace.status === 200 &&
          after.gitlab.status === 200
        );
      },
      20_000,
      'every context to serve after the database returned',
    );
    figures.push(
      `every context served again ${Math.round(ms)} ms after the database returned`,
    );
  }

  it('serves before any fault', async () => {
    const before = await everyContext('warm-up');
    expect(before.ready.status).toBe(200);
    expect(before.collector.status).toBe(200);
    expect(before.events.status).toBe(201);
  });

  it('stalled (SIGSTOP): every call answers within the bound (503; the collector 200, spooled), then recovers', async () => {
    await cluster.pg.stall();
    try {
      expectBoundedUnavailable('stalled', await everyContext('stall'));
      // Still stalled: later calls (over connections now dropped) too.
      expectBoundedUnavailable(
        'stalled, again',
        await everyContext('stall, again'),
      );
    } finally {
      await cluster.pg.resume();
    }
    await expectRecovered();
  });

  it('stopped: every call answers within the bound (503; the collector 200, spooled), then recovers', async () => {
    await cluster.pg.stop();
    try {
      expectBoundedUnavailable('stopped', await everyContext('stop'));
    } finally {
      await cluster.pg.start();
    }
    await expectRecovered();
  });

  it('stores every event it acknowledged, the spooled ones once drained', async () => {
    expect(acknowledged.length).toBeGreaterThanOrEqual(5);
    const stored = async () =>
      new Set(
        (
          await cluster.pg.query<{ event_id: string }>(
            'outage',
            'SELECT event_id FROM error_tracking.events WHERE event_id = ANY($1)',
            [acknowledged],
          )
        ).map((row) => row.event_id.replace(/-/g, '')),
      );
    await waitFor(
      async () => (await stored()).size === new Set(acknowledged).size,
      20_000,
      'the spooled events to be drained',
    );
    expect(await stored()).toEqual(new Set(acknowledged));
  });
});
