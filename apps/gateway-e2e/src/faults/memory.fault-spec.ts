import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';

import autocannon from 'autocannon';

import { peakRssMb, startGatewayProcess } from './support/gateway-process';
import { startFaultCluster } from './support/fault-cluster';
import type { FaultCluster } from './support/fault-cluster';
import {
  APP_AUTH,
  APP_KEY,
  GATEWAY_ENV,
  MASTER_AUTH,
  SCALE,
  WRITE_TOKEN,
  collectorUrl,
  send,
  trackedProject,
} from './support/scenario';

/** The contract's ceiling ("Reliability": under any load). */
const RSS_LIMIT_MB = 300;
/** Seconds of each phase: 5 in CI, 50 at full size (`FAULTS_SCALE=10`). */
const PHASE_SECONDS = 5 * SCALE;
const CONNECTIONS = 32;

interface Phase {
  readonly name: string;
  readonly options: autocannon.Options;
}

/** Runs one phase to its end; what it answered, by status class. */
async function run(phase: Phase): Promise<autocannon.Result> {
  return autocannon({
    connections: CONNECTIONS,
    duration: PHASE_SECONDS,
    ...phase.options,
  });
}

/**
 * Memory under sustained saturating load (contract, "Reliability": RSS
 * under 300 MB under any load): collector events, event writes and reads,
 * and marketplace listings, one after another at 32 connections, as hard as
 * the gateway answers; its peak resident memory (`VmHWM`, the kernel's own
 * high-water mark) is read at the end. The fuzz scenario checks the same
 * ceiling against hostile input.
 */
describe('memory under sustained load (fault)', () => {
  let cluster: FaultCluster;

  beforeAll(async () => {
    cluster = await startFaultCluster('memory');
  });

  afterAll(async () => {
    await cluster?.destroy();
  });

  it('stays under 300 MB resident', async () => {
    const gw = await startGatewayProcess({
      ...GATEWAY_ENV,
      DATABASE_URL: cluster.databaseUrl,
      DATA_DIR: cluster.dataDir,
      DB_POOL_SIZE: '10',
      ERROR_TRACKING_RATE_LIMIT_PER_MINUTE: '0',
    });
    try {
      const project = await trackedProject(gw.url);
      for (let i = 0; i < 50; i += 1) {
        const created = await send(`${gw.url}/appdata/${APP_KEY}/product`, {
          method: 'POST',
          headers: { authorization: MASTER_AUTH },
          json: { name: `product ${i}`, measurement: 'kg', price: '3,50' },
        });
        expect(created.status).toBe(201);
      }
      const event = await send(`${gw.url}/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${WRITE_TOKEN}` },
        json: { title: 'memory', description: 'x'.repeat(500) },
      });
      const eventId = (JSON.parse(event.text) as { id: string }).id;

      const phases: Phase[] = [
        {
          name: 'collector',
          options: {
            url: collectorUrl(gw.url, project),
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            requests: [
              {
                // A fresh event id each time: nothing is deduplicated away.
                setupRequest: (request) => ({
                  ...request,
                  body: JSON.stringify({
                    event_id: randomBytes(16).toString('hex'),
                    message: `memory ${randomBytes(1)[0] ?? 0}`,
                    level: 'error',
                    extra: { padding: 'y'.repeat(2_000) },
                  }),
                }),
              },
            ],
          },
        },
        {
          name: 'events',
          options: {
            url: gw.url,
            requests: [
              {
                method: 'POST',
                path: '/events',
                headers: {
                  authorization: `Bearer ${WRITE_TOKEN}`,
                  'content-type': 'application/json',
                },
                body: JSON.stringify({ title: 'memory load' }),
              },
              { method: 'GET', path: `/events/${eventId}` },
            ],
          },
        },
        {
          name: 'marketplace',
          options: {
            url: `${gw.url}/appdata/${APP_KEY}/product?limit=50`,
            headers: { authorization: APP_AUTH },
          },
        },
      ];
      const answered: string[] = [];
      for (const phase of phases) {
        const result = await run(phase);
        answered.push(
          `${phase.name}: ${result.requests.total} requests, ` +
            `${result['2xx']} 2xx, ${result.non2xx} other, ${result.errors} errors`,
        );
        // Load that failed would not have exercised the gateway's memory.
        expect(result['2xx']).toBeGreaterThan(result.requests.total * 0.99);
      }
      const pid = await gw.servingPid();
      // The worker runs under the heap limit the primary gave it.
      const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
      expect(argv).toContainEqual(
        expect.stringMatching(/^--max-old-space-size=\d+$/),
      );
      // And with glibc's mmap threshold fixed (allocator-policy.ts).
      const environ = (await readFile(`/proc/${pid}/environ`, 'utf8')).split(
        '\0',
      );
      expect(environ).toContainEqual(
        expect.stringMatching(/^MALLOC_MMAP_THRESHOLD_=\d+$/),
      );
      const rss = await peakRssMb(pid);
      console.log(
        `memory: ${PHASE_SECONDS} s per phase at ${CONNECTIONS} connections; ` +
          `${answered.join('; ')}; gateway peak RSS ${Math.round(rss)} MB`,
      );
      expect(rss).toBeGreaterThan(0);
      expect(rss).toBeLessThan(RSS_LIMIT_MB);
    } finally {
      gw.kill('SIGTERM');
      await gw.exited;
    }
  });
});
