import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import { runMain } from '../support/gateway-process';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('the gateway process (e2e)', () => {
  let database: TestDatabase;
  let dataDir: string;

  beforeAll(async () => {
    database = await openTestDatabase();
    dataDir = await mkdtemp(join(tmpdir(), 'quitanda-process-'));
  });

  afterAll(async () => {
    await database?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses a bad variable before starting: exit 78 and one JSON line naming it', async () => {
    const run = await runMain({ LOG_LEVEL: 'loud', DATA_DIR: dataDir });
    expect(run.code).toBe(78);
    expect(run.lines).toHaveLength(1);
    expect(run.lines[0]).toMatchObject({
      level: 60,
      time: expect.stringMatching(ISO_TIME),
      msg: expect.stringContaining('LOG_LEVEL must be one of'),
    });
  });

  it('serves, and on SIGTERM finishes and exits 0, logging one format in order', async () => {
    let created = 0;
    let createdBytes = 0;
    let problemBytes = 0;
    const run = await runMain(
      {
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        MIGRATIONS: 'off',
        LOG_LEVEL: 'info',
        DB_POOL_SIZE: '2',
      },
      async (url) => {
        const res = await fetch(`${url}/events`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ title: 'from the process test' }),
        });
        created = res.status;
        createdBytes = (await res.arrayBuffer()).byteLength;
        // An error's body is written by the error filter, not by Express.
        const missing = await fetch(
          `${url}/events/01a20177-f2a1-76d2-8065-e60865a06cdf`,
        );
        expect(missing.status).toBe(404);
        problemBytes = (await missing.arrayBuffer()).byteLength;
      },
    );
    expect(created).toBe(201);
    expect(run.code).toBe(0);
    for (const line of run.lines)
      expect(line['time']).toEqual(expect.stringMatching(ISO_TIME));
    const messages = run.lines.map((line) => line['msg']);
    const request = run.lines.findIndex(
      (line) => line['url'] === '/events' && line['status'] === 201,
    );
    expect(request).toBeGreaterThan(messages.indexOf('Quitanda is listening'));
    // The request log states each response's size, error bodies included.
    expect(createdBytes).toBeGreaterThan(0);
    expect(problemBytes).toBeGreaterThan(0);
    expect(run.lines[request]?.['bytes']).toBe(createdBytes);
    expect(run.lines.find((line) => line['status'] === 404)?.['bytes']).toBe(
      problemBytes,
    );
    expect(
      messages.indexOf('Shutting down: finishing in-flight requests'),
    ).toBeGreaterThan(request);
    expect(messages.at(-1)).toBe('Stopped');
  });

  it('stays one process on the embedded database when WORKERS asks for more, and says so', async () => {
    const embedded = await mkdtemp(join(tmpdir(), 'quitanda-process-workers-'));
    try {
      const run = await runMain(
        { DATA_DIR: embedded, WORKERS: '2' },
        async () => undefined,
      );
      expect(run.code).toBe(0);
      const warning = run.lines.find((line) => line['level'] === 40);
      expect(warning?.['msg']).toBe(
        'WORKERS=2 asked, but the embedded database serves one process: running one gateway process (set DATABASE_URL to run several)',
      );
      const pids = new Set(run.lines.map((line) => line['pid']));
      expect(pids.size).toBe(1);
      expect(
        run.lines.filter((line) => line['msg'] === 'Quitanda is listening'),
      ).toHaveLength(1);
    } finally {
      await rm(embedded, { recursive: true, force: true });
    }
  }, 120_000);
});
