import { request } from 'node:http';

import { peakRssMb, startGatewayProcess } from './support/gateway-process';
import { startFaultCluster } from './support/fault-cluster';
import type { FaultCluster } from './support/fault-cluster';
import { APP_AUTH, APP_KEY, GATEWAY_ENV } from './support/scenario';

/** Bodies at once, twice over: each 1 MiB of JSON that parses into 340,000 objects. */
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
 * JSON whose text is small beside what it parses into (`{},` is 3 bytes, an
 * object in the heap), sent with the public app secret to the routes that
 * parse before they refuse: 64 such bodies at once held 2.1 GB without a
 * heap limit, and ended the worker under one. The parsed values now count
 * in the body budget, weighed from the raw bytes before the parse.
 */
describe('dense JSON bodies (fault)', () => {
  let cluster: FaultCluster;

  beforeAll(async () => {
    cluster = await startFaultCluster('dense-json');
  });

  afterAll(async () => {
    await cluster?.destroy();
  });

  it('answers every one with a 4xx, the same worker stays up and under 300 MB', async () => {
    const gw = await startGatewayProcess({
      ...GATEWAY_ENV,
      DATABASE_URL: cluster.databaseUrl,
      DATA_DIR: cluster.dataDir,
    });
    try {
      const pid = await gw.servingPid();
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
      const rss = await peakRssMb(pid);
      console.log(
        `dense JSON: ${2 * AT_ONCE} bodies of ${body.length} bytes; answers ${JSON.stringify(answers)}; gateway peak RSS ${Math.round(rss)} MB`,
      );
      expect(Object.keys(answers).every((s) => /^4\d\d$/.test(s))).toBe(true);
      // Weighed before they are parsed: past the budget, refused unparsed
      // (413 for one the budget could never hold, 429 while others hold it).
      expect((answers['413'] ?? 0) + (answers['429'] ?? 0)).toBe(2 * AT_ONCE);
      expect(await gw.servingPid()).toBe(pid);
      expect(gw.output()).not.toContain('heap out of memory');
      expect(rss).toBeLessThan(RSS_LIMIT_MB);
    } finally {
      gw.kill('SIGTERM');
      await gw.exited;
    }
  });
});
