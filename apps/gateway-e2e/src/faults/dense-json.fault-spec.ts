import { request } from 'node:http';
import { gzipSync } from 'node:zlib';

import { peakRssMb, startGatewayProcess } from './support/gateway-process';
import type { GatewayProcess } from './support/gateway-process';
import { startFaultCluster } from './support/fault-cluster';
import type { FaultCluster } from './support/fault-cluster';
import {
  APP_AUTH,
  APP_KEY,
  GATEWAY_ENV,
  collectorUrl,
  postBody,
  trackedProject,
} from './support/scenario';

/** Requests at once, twice over, each with JSON that parses into far more than its text. */
const AT_ONCE = 64;
const RSS_LIMIT_MB = 300;

/**
 * POSTs `body` and resolves with the status, the network error's code, or
 * `timeout` after 30 s.
 */
function post(url: URL, path: string, body: Buffer): Promise<string> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path,
        headers: {
          'content-type': 'application/json',
          'content-length': body.length,
          authorization: APP_AUTH,
        },
      },
      (res) => {
        res.resume();
        res.once('end', () => resolve(String(res.statusCode)));
      },
    );
    req.once('error', (error: NodeJS.ErrnoException) =>
      resolve(error.code ?? 'error'),
    );
    req.setTimeout(30_000, () => {
      resolve('timeout');
      req.destroy();
    });
    req.end(body);
  });
}

/**
 * An event whose text is small beside what it parses into: `{},` is 3 bytes
 * of JSON and an object in the heap; with `objects` = 340,000 it is 1 MiB,
 * the collector's limit for one event.
 */
function denseEvent(n: number, objects: number): string {
  return `{"event_id":"${n.toString(16).padStart(32, '0')}","message":"dense","extra":{"pad":[${'{},'.repeat(objects)}{}]}}`;
}

function envelopeOf(event: string): Buffer {
  return gzipSync(
    `{}\n{"type":"event","length":${Buffer.byteLength(event)}}\n${event}\n`,
  );
}

/**
 * Starts the gateway, runs `attack` against it, and checks that the worker
 * serving before is still the one serving, never ran out of heap, and
 * peaked under 300 MB; `attack` returns its summary for the log.
 */
async function attackOneWorker(
  cluster: FaultCluster,
  attack: (gw: GatewayProcess) => Promise<string>,
): Promise<void> {
  const gw = await startGatewayProcess({
    ...GATEWAY_ENV,
    DATABASE_URL: cluster.databaseUrl,
    DATA_DIR: cluster.dataDir,
  });
  try {
    const pid = await gw.servingPid();
    const summary = await attack(gw);
    const rss = await peakRssMb(pid);
    console.log(`${summary}; gateway peak RSS ${Math.round(rss)} MB`);
    expect(await gw.servingPid()).toBe(pid);
    expect(gw.output()).not.toContain('heap out of memory');
    expect(rss).toBeLessThan(RSS_LIMIT_MB);
  } finally {
    gw.kill('SIGTERM');
    await gw.exited;
  }
}

/**
 * JSON whose text is small beside what it parses into (`{},` is 3 bytes, an
 * object in the heap), sent with the public app secret to the routes that
 * parse before they refuse: 64 such bodies at once held 2.1 GB without a
 * heap limit, and ended the worker under one. The parsed values now count
 * in the body budget, weighed from the raw bytes before the parse. The
 * collector weighs each event it parses the same way: 64 one-MiB events
 * of empty objects, sent with a project's public key, ended the worker
 * too, and every request in flight with it.
 */
describe('dense JSON bodies and events (fault)', () => {
  let cluster: FaultCluster;

  beforeAll(async () => {
    cluster = await startFaultCluster('dense-json');
  });

  afterAll(async () => {
    await cluster?.destroy();
  });

  it('answers every one with a 4xx, the same worker stays up and under 300 MB', async () => {
    await attackOneWorker(cluster, async (gw) => {
      const body = Buffer.from(
        `{"username":"u","password":"p","pad":[${'{},'.repeat(340_000)}{}]}`,
      );
      const paths = [
        `/user/${APP_KEY}/login`,
        `/user/${APP_KEY}`,
        `/appdata/${APP_KEY}/product`,
      ];
      const answers: Record<string, number> = {};
      for (let round = 0; round < 2; round += 1) {
        const statuses = await Promise.all(
          Array.from({ length: AT_ONCE }, (_, i) =>
            post(new URL(gw.url), paths[i % paths.length] as string, body),
          ),
        );
        for (const status of statuses)
          answers[status] = (answers[status] ?? 0) + 1;
      }
      expect(Object.keys(answers).every((s) => /^4\d\d$/.test(s))).toBe(true);
      // Weighed before they are parsed: past the budget, refused unparsed
      // (413 for one the budget could never hold, 429 while others hold it).
      expect((answers['413'] ?? 0) + (answers['429'] ?? 0)).toBe(2 * AT_ONCE);
      return `dense JSON: ${2 * AT_ONCE} bodies of ${body.length} bytes; answers ${JSON.stringify(answers)}`;
    });
  });

  it('weighs each event the collector parses the same way, with the public key: the same worker stays up and under 300 MB', async () => {
    await attackOneWorker(cluster, async (gw) => {
      const project = await trackedProject(gw.url);
      const store = new URL(collectorUrl(gw.url, project));
      const envelope = `/api/v4/error_tracking/collector/api/${project.id}/envelope/?sentry_key=${project.publicKey}`;
      const storePath = store.pathname + store.search;
      const json = { 'content-type': 'application/json' };
      const gzip = { 'content-encoding': 'gzip' };
      // 1 MiB: more than the whole budget once parsed. One in eight is of
      // 256 KiB, held a few at a time: stored, or 429 while others hold the
      // budget.
      const largest = Buffer.from(denseEvent(1, 340_000));
      const smaller = Buffer.from(denseEvent(2, 85_000));
      const kind = (i: number) => {
        const large = i % 8 !== 7;
        const event = large ? largest : smaller;
        const send =
          i % 2 === 0
            ? () => postBody(gw.url, storePath, json, event)
            : () =>
                postBody(gw.url, envelope, gzip, envelopeOf(event.toString()));
        return { large, send };
      };
      const answers = {
        large: {} as Record<string, number>,
        smaller: {} as Record<string, number>,
      };
      for (let round = 0; round < 2; round += 1) {
        const sent = Array.from({ length: AT_ONCE }, (_, i) => kind(i + round));
        const statuses = await Promise.all(sent.map((kind) => kind.send()));
        statuses.forEach((status, i) => {
          const tally = sent[i]?.large ? answers.large : answers.smaller;
          tally[status] = (tally[status] ?? 0) + 1;
        });
      }
      // Each larger one refused: never to be held (413), or before its
      // text was, while others held the budget (429).
      expect(
        Object.keys(answers.large).every((s) => /^(413|429)$/.test(s)),
      ).toBe(true);
      expect(answers.large['413']).toBeGreaterThan(0);
      // Each smaller one stored, or refused while others hold the budget.
      expect(
        Object.keys(answers.smaller).every((s) => /^(200|429)$/.test(s)),
      ).toBe(true);
      expect(answers.smaller['200']).toBeGreaterThan(0);
      return `dense events: ${2 * AT_ONCE} requests of one event of ${largest.length} or ${smaller.length} bytes; answers ${JSON.stringify(answers)}`;
    });
  });
});
