import { request } from 'node:http';
import { gzipSync } from 'node:zlib';

import { peakRssMb, startGatewayProcess } from './support/gateway-process';
import { startFaultCluster } from './support/fault-cluster';
import type { FaultCluster } from './support/fault-cluster';
import {
  APP_KEY,
  GATEWAY_ENV,
  MASTER_AUTH,
  SCALE,
  WRITE_TOKEN,
  probeLive,
  send,
  trackedProject,
} from './support/scenario';

/** The contract's ceiling ("Reliability": under any load). */
const RSS_LIMIT_MB = 300;
const MIB = 1024 * 1024;
/**
 * Requests of each hostile kind at once: 12 in CI (132 hostile requests,
 * over a hundred of them 19 MiB or more), more at full size.
 */
const EACH = 12 * Math.min(SCALE, 4);

interface Hostile {
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body: Buffer;
  /** Sent chunked (no Content-Length). */
  readonly chunked?: boolean;
  /** Sent in this many pieces, one per event-loop turn of the sender. */
  readonly trickle?: number;
}

/**
 * Sends one request, writing its whole body before reading, and resolves
 * with its status (0: the connection was closed, as the gateway does past
 * what it reads and drops behind an early answer).
 */
function fire(base: string, hostile: Hostile): Promise<number> {
  return new Promise((resolve) => {
    const url = new URL(hostile.path, base);
    const headers: Record<string, string> = { ...hostile.headers };
    if (!hostile.chunked)
      headers['content-length'] = String(hostile.body.length);
    const req = request(
      url,
      { method: 'POST', headers, timeout: 60_000 },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
    req.on('timeout', () => req.destroy());
    const pieces = hostile.trickle ?? 1;
    const size = Math.ceil(hostile.body.length / pieces);
    let offset = 0;
    const next = () => {
      if (offset >= hostile.body.length) {
        req.end();
        return;
      }
      const piece = hostile.body.subarray(offset, offset + size);
      offset += size;
      if (req.write(piece)) setImmediate(next);
      else req.once('drain', next);
    };
    next();
  });
}

/**
 * Hostile bodies at once, against one gateway process (contract,
 * "Reliability": RSS under 300 MB under any load; "Limits": the bytes
 * buffered across all requests in flight are bounded, envelopes are read
 * incrementally). Each kind `EACH` times over: 19 MiB bodies refused by
 * their length or after reading (events, marketplace, collector with a
 * good key and junk, with no key), the same chunked, trickled in slowly,
 * gzip bombs, and envelopes of 2.5 million tiny items with and without a
 * key. Meanwhile a probe asks `/health/live` again and again: the slowest
 * answer says how long the event loop stood still. Every hostile request
 * gets a 4xx or, past what the gateway reads and drops, a closed
 * connection; never a 5xx.
 */
describe('hostile request bodies (fault)', () => {
  let cluster: FaultCluster;

  beforeAll(async () => {
    cluster = await startFaultCluster('hostile-bodies');
  });

  afterAll(async () => {
    await cluster?.destroy();
  });

  it('keeps the gateway under 300 MB resident and answering', async () => {
    const gw = await startGatewayProcess({
      ...GATEWAY_ENV,
      DATABASE_URL: cluster.databaseUrl,
      DATA_DIR: cluster.dataDir,
    });
    try {
      const project = await trackedProject(gw.url);
      const envelope = `/api/v4/error_tracking/collector/api/${project.id}/envelope/`;
      const keyed = `${envelope}?sentry_key=${project.publicKey}`;
      const large = Buffer.alloc(19 * MIB, 'x');
      const bomb = gzipSync(Buffer.alloc(99 * MIB, '{}\n'));
      const manyItems = gzipSync(
        Buffer.concat([Buffer.from('{}\n'), Buffer.alloc(15_000_000, '{}\n')]),
      );
      const gzip = { 'content-encoding': 'gzip' };
      const json = {
        authorization: `Bearer ${WRITE_TOKEN}`,
        'content-type': 'application/json',
      };
      const kinds: Hostile[] = [
        { path: '/events', headers: json, body: large },
        { path: '/events', headers: json, body: large, chunked: true },
        {
          path: `/appdata/${APP_KEY}/product`,
          headers: {
            authorization: MASTER_AUTH,
            'content-type': 'application/json',
          },
          body: large,
        },
        { path: keyed, body: large },
        { path: keyed, body: large, chunked: true },
        { path: envelope, body: large },
        { path: keyed, body: large, trickle: 64 },
        { path: keyed, body: bomb, headers: gzip },
        { path: envelope, body: bomb, headers: gzip },
        { path: keyed, body: manyItems, headers: gzip },
        { path: envelope, body: manyItems, headers: gzip },
      ];

      let attacking = true;
      let slowestProbeMs = 0;
      let probes = 0;
      const probe = (async () => {
        while (attacking) {
          const answer = await probeLive(gw.url);
          expect(answer.status).toBe(200);
          slowestProbeMs = Math.max(slowestProbeMs, answer.ms);
          probes += 1;
        }
      })();
      const statuses = await Promise.all(
        kinds.flatMap((kind) =>
          Array.from({ length: EACH }, () => fire(gw.url, kind)),
        ),
      );
      attacking = false;
      await probe;

      // Still serving every context once the attack is over.
      const write = await send(`${gw.url}/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${WRITE_TOKEN}` },
        json: { title: 'after the attack' },
      });
      expect(write.status).toBe(201);

      const rss = await peakRssMb(await gw.servingPid());
      const counts = new Map<number, number>();
      for (const status of statuses)
        counts.set(status, (counts.get(status) ?? 0) + 1);
      console.log(
        `hostile bodies: ${statuses.length} requests (${[...counts]
          .sort(([a], [b]) => a - b)
          .map(([status, n]) => `${status}: ${n}`)
          .join(
            ', ',
          )}); ${probes} probes, slowest ${Math.round(slowestProbeMs)} ms; ` +
          `gateway peak RSS ${Math.round(rss)} MB`,
      );
      for (const status of statuses)
        expect([0, 400, 401, 403, 413, 429]).toContain(status);
      expect(slowestProbeMs).toBeLessThan(2_000);
      expect(rss).toBeGreaterThan(0);
      expect(rss).toBeLessThan(RSS_LIMIT_MB);
    } finally {
      gw.kill('SIGTERM');
      await gw.exited;
    }
  });
});
