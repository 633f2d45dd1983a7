import { chmod, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client, Pool } from 'pg';

import {
  probeEmbeddedPostgres,
  startEmbeddedPostgres,
} from './embedded-postgres';

async function scalar<T>(
  url: string,
  sql: string,
  values: unknown[] = [],
): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return Object.values(
      (await client.query(sql, values)).rows[0] ?? {},
    )[0] as T;
  } finally {
    await client.end();
  }
}

/** Every path below `root` whose mode lets anyone but the owner in. */
async function openToOthers(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true });
  const open: string[] = [];
  for (const entry of entries) {
    const mode = (await stat(join(root, entry))).mode & 0o777;
    if (mode & 0o077) open.push(`${entry} ${mode.toString(8)}`);
  }
  return open;
}

describe('embedded PostgreSQL (PGlite over the wire protocol)', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'quitanda-embedded-'));
  });

  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('persists data in DATA_DIR across restarts, behind an owner-only socket', async () => {
    const first = await startEmbeddedPostgres({ dataDir });
    await scalar(first.url, 'CREATE TABLE kept (v text)');
    await scalar(first.url, 'INSERT INTO kept VALUES ($1)', ['still here']);
    expect((await stat(join(dataDir, 'run'))).mode & 0o777).toBe(0o700);
    await expect(probeEmbeddedPostgres(dataDir)).resolves.toBe(first.url);
    await first.close();
    await expect(probeEmbeddedPostgres(dataDir)).resolves.toBeUndefined();

    const second = await startEmbeddedPostgres({ dataDir });
    await expect(scalar(second.url, 'SELECT v FROM kept')).resolves.toBe(
      'still here',
    );
    await second.close();
  });

  it('keeps its files owner-only: directories 0700, files 0600, also when an older start left them open', async () => {
    const fresh = join(dataDir, 'modes', 'data');
    const db = await startEmbeddedPostgres({ dataDir: fresh });
    await scalar(
      db.url,
      'CREATE TABLE t AS SELECT generate_series(1, 100) AS n',
    );
    await db.close();
    expect((await stat(fresh)).mode & 0o777).toBe(0o700);
    expect(await openToOthers(fresh)).toEqual([]);

    // What a start before this rule left behind.
    await chmod(join(fresh, 'pglite', 'PG_VERSION'), 0o666);
    await chmod(join(fresh, 'pglite'), 0o755);
    const again = await startEmbeddedPostgres({ dataDir: fresh });
    await again.close();
    expect(await openToOthers(fresh)).toEqual([]);
  });

  it('serves several pools with concurrent transactions without deadlock', async () => {
    const embedded = await startEmbeddedPostgres({});
    const pools = [0, 1, 2].map(
      () => new Pool({ connectionString: embedded.url, max: 4 }),
    );
    try {
      await pools[0]?.query(
        'CREATE TABLE counters (id int primary key, n int)',
      );
      await pools[0]?.query('INSERT INTO counters VALUES (1, 0)');
      await Promise.all(
        Array.from({ length: 60 }, async (_, i) => {
          const pool = pools[i % 3] as Pool;
          const client = await pool.connect();
          try {
            await client.query('BEGIN');
            await client.query('UPDATE counters SET n = n + 1 WHERE id = 1');
            await client.query('SELECT $1::int', [i]);
            await client.query('COMMIT');
          } finally {
            client.release();
          }
        }),
      );
      const { rows } = await (pools[1] as Pool).query('SELECT n FROM counters');
      expect(rows).toEqual([{ n: 60 }]);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
      await embedded.close();
    }
  });

  it('clones a data directory dump', async () => {
    const source = await startEmbeddedPostgres({});
    await scalar(source.url, 'CREATE TABLE cloned AS SELECT 42 AS answer');
    const dump = await source.dumpDataDir();
    await source.close();
    const clone = await startEmbeddedPostgres({ loadDataDir: dump });
    await expect(scalar(clone.url, 'SELECT answer FROM cloned')).resolves.toBe(
      42,
    );
    await clone.close();
  });
});
