import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startGatewayProcess } from './support/gateway-process';
import { MixedLoad } from './support/mixed-load';
import { startPrivatePostgres } from './support/private-postgres';
import type { PrivatePostgres } from './support/private-postgres';
import {
  GATEWAY_ENV,
  SCALE,
  SEED,
  send,
  trackedProject,
} from './support/scenario';

const WORKERS = 8;

/**
 * Two replicas booting at once on an empty database (both migrating, both
 * bootstrapping first-boot credentials), then two more booting at once
 * while the first two serve a mixed load: all come up, every write
 * succeeds, and each is there once.
 */
describe('two replicas booting at once under load (fault)', () => {
  let pg: PrivatePostgres;
  const dataDirs: string[] = [];

  beforeAll(async () => {
    pg = await startPrivatePostgres();
    await pg.createDatabase('replicas');
  });

  afterAll(async () => {
    await pg?.destroy();
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
  });

  it('boots both, shares the load, loses nothing', async () => {
    const boot = async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'quitanda-faults-'));
      dataDirs.push(dataDir);
      return startGatewayProcess({
        ...GATEWAY_ENV,
        DATABASE_URL: pg.url('replicas'),
        DATA_DIR: dataDir,
      });
    };
    const replicas = await Promise.all([boot(), boot()]);
    const urls = replicas.map((replica) => replica.url);
    for (const url of urls)
      expect((await send(`${url}/health/ready`)).status).toBe(200);

    const project = await trackedProject(urls[0] as string);
    const load = new MixedLoad(project, SEED);
    let turn = 0;
    let done = false;
    const running = load.run(
      WORKERS,
      () => urls[turn++ % urls.length] as string,
      () => done,
    );
    // Two more boot at once while the first two are under load, then
    // the load spreads over all four.
    const before = load.requests;
    const more = await Promise.all([boot(), boot()]);
    expect(load.requests).toBeGreaterThan(before);
    replicas.push(...more);
    urls.push(...more.map((replica) => replica.url));
    await new Promise((resolve) => setTimeout(resolve, 1_000 * SCALE));
    done = true;
    await running;
    for (const replica of replicas) replica.kill('SIGTERM');
    expect(await Promise.all(replicas.map((r) => r.exited))).toEqual([
      0, 0, 0, 0,
    ]);

    const verdict = await load.verify(pg, 'replicas');
    console.log(
      `replicas: 2 booted at once on an empty database, 2 more under load, ${load.requests} writes, ${verdict.acknowledged} acknowledged, ` +
        `lost ${verdict.lost.length}, duplicated ${verdict.duplicated.length}`,
    );
    expect(verdict.acknowledged).toBe(load.requests);
    expect(verdict.lost).toEqual([]);
    expect(verdict.duplicated).toEqual([]);
    expect(verdict.inconsistentErrors).toEqual([]);
  });
});
