import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from 'pg';
import { openTestDatabase } from '@quitanda/testing';
import type { TestDatabase } from '@quitanda/testing';

import { runCli, runMain } from '../support/gateway-process';

// An embedded gateway boots (PGlite and every migration), then the CLI runs
// twice from sources.
jest.setTimeout(240_000);

describe('backup of a running embedded gateway, under write load (e2e)', () => {
  let work: string;
  let target: TestDatabase;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'quitanda-online-backup-'));
    target = await openTestDatabase();
  });

  afterAll(async () => {
    await target?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('is taken without stopping writes and restores every write acknowledged before it began', async () => {
    const dataDir = join(work, 'data');
    const file = join(work, 'online.sql');
    const acknowledged: string[] = [];
    let ackedBeforeBackup: string[] = [];
    const failures: string[] = [];
    let backupRun: Awaited<ReturnType<typeof runCli>> | undefined;

    const run = await runMain({ DATA_DIR: dataDir }, async (url) => {
      let writing = true;
      const write = async () => {
        for (let i = 0; writing; i += 1) {
          const title = `write-${i}`;
          const res = await fetch(`${url}/events`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ title }),
          });
          if (res.status === 201) acknowledged.push(title);
          else failures.push(`${title}: ${res.status}`);
        }
      };
      const writer = write();
      // Some writes first, then the backup while they keep coming.
      while (acknowledged.length < 20 && failures.length === 0)
        await new Promise((resolve) => setImmediate(resolve));
      ackedBeforeBackup = [...acknowledged];
      backupRun = await runCli(['backup', file], { DATA_DIR: dataDir });
      const duringBackup = acknowledged.length - ackedBeforeBackup.length;
      writing = false;
      await writer;
      // The gateway kept acknowledging writes while the dump was taken.
      expect(duringBackup).toBeGreaterThan(0);
    });

    expect(run.code).toBe(0);
    expect(failures).toEqual([]);
    expect(backupRun).toMatchObject({ code: 0, stderr: '' });

    // Into a database that has the schemas already: refused, then replaced.
    const env = { DATABASE_URL: target.url, DATA_DIR: join(work, 'unused') };
    const refused = await runCli(['restore', file], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--replace');
    const restored = await runCli(['restore', '--replace', file], env);
    expect(restored).toMatchObject({ code: 0, stderr: '' });

    const client = new Client({ connectionString: target.url });
    await client.connect();
    try {
      const titles = new Set(
        (
          await client.query<{ title: string }>(
            'SELECT title FROM events.events',
          )
        ).rows.map((row) => row.title),
      );
      expect(ackedBeforeBackup.filter((title) => !titles.has(title))).toEqual(
        [],
      );
      // Consistent: nothing the gateway never acknowledged.
      expect([...titles].filter((t) => !acknowledged.includes(t))).toEqual([]);
    } finally {
      await client.end();
    }
  });
});
