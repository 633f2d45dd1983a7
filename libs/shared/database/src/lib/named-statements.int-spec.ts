import { DataSource } from 'typeorm';

import { contextDataSourceOptions } from './context-data-source-options';
import { startEmbeddedPostgres } from './embedded-postgres';
import type { EmbeddedPostgres } from './embedded-postgres';
import {
  hasNamedStatements,
  namedStatements,
  statementName,
} from './named-statements';
import { Sql, poolOf } from './sql';

const TEXT = 'SELECT $1::int + $2::int AS sum';
const OTHER = 'SELECT $1::int - $2::int AS sum';

describe('Sql.prepared and named statements', () => {
  let embedded: EmbeddedPostgres;

  beforeAll(async () => {
    embedded = await startEmbeddedPostgres({});
  });

  afterAll(async () => {
    await embedded.close();
  });

  /** A one-connection pool, so every call sees the same server session. */
  let sessions = 0;
  async function oneSession(on: boolean): Promise<DataSource> {
    sessions += 1;
    const options = contextDataSourceOptions({
      name: `named_${sessions}`,
      schema: 'public',
      url: embedded.url,
      entities: [],
      migrations: [],
      poolSize: 1,
    });
    const dataSource = new DataSource({
      ...options,
      extra: { ...options.extra, ...namedStatements(on) },
    });
    return dataSource.initialize();
  }

  async function preparedNames(sql: Sql): Promise<string[]> {
    const rows = await sql.rows<{ name: string }>(
      'SELECT name FROM pg_prepared_statements ORDER BY name',
    );
    return rows.map((row) => row.name);
  }

  it('prepares the statement once in the session, by a name of its text', async () => {
    const dataSource = await oneSession(true);
    try {
      const sql = new Sql(dataSource);
      expect(await sql.prepared('add', TEXT, [1, 2])).toEqual([{ sum: 3 }]);
      expect(await sql.prepared('add', TEXT, [40, 2])).toEqual([{ sum: 42 }]);
      expect(await preparedNames(sql)).toContain(statementName('add', TEXT));
    } finally {
      await dataSource.destroy();
    }
  });

  it('sends unnamed statements when the pool does not allow named ones', async () => {
    const dataSource = await oneSession(false);
    try {
      const sql = new Sql(dataSource);
      expect(await sql.prepared('sub', OTHER, [5, 2])).toEqual([{ sum: 3 }]);
      // PGlite's one session is every connection's: only the name matters.
      expect(await preparedNames(sql)).not.toContain(
        statementName('sub', OTHER),
      );
    } finally {
      await dataSource.destroy();
    }
  });

  it('falls back to unnamed statements when another connection prepared the name in its session', async () => {
    // PGlite's socket gives every connection the one session, as a
    // transaction-pooling PgBouncer hands one connection several.
    const first = await oneSession(true);
    const second = await oneSession(true);
    const warn = jest
      .spyOn(process, 'emitWarning')
      .mockImplementation(() => undefined);
    try {
      const text = 'SELECT $1::int * $2::int AS product';
      await new Sql(first).prepared('mul', text, [6, 7]);
      const sql = new Sql(second);
      // Parse in the session that has the name: 42P05, then unnamed.
      expect(await sql.prepared('mul', text, [2, 3])).toEqual([{ product: 6 }]);
      expect(await sql.prepared('mul', text, [3, 3])).toEqual([{ product: 9 }]);
      expect(hasNamedStatements(poolOf(second))).toBe(false);
      expect(hasNamedStatements(poolOf(first))).toBe(true);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn).toHaveBeenCalledWith(
        expect.stringContaining('DB_PREPARED_STATEMENTS=false'),
        expect.anything(),
      );
    } finally {
      warn.mockRestore();
      await first.destroy();
      await second.destroy();
    }
  });

  it('names no more than 256 texts, so built text cannot fill the server sessions', () => {
    jest.isolateModules(() => {
      // A fresh module: its name table starts empty.
      const fresh = require('./named-statements') as {
        statementName: typeof statementName;
      };
      const names = Array.from({ length: 300 }, (_, n) =>
        fresh.statementName('built', `SELECT ${n}`),
      );
      expect(names.slice(0, 256).every((n) => n?.startsWith('built_'))).toBe(
        true,
      );
      expect(names.slice(256)).toEqual(Array(44).fill(undefined));
      expect(fresh.statementName('built', 'SELECT 0')).toBe(names[0]);
    });
  });

  it('names two texts apart even at one call site', () => {
    expect(statementName('add', TEXT)).toMatch(/^add_[0-9a-f]{16}$/);
    expect(statementName('add', TEXT)).toBe(statementName('add', TEXT));
    expect(statementName('add', OTHER)).not.toBe(statementName('add', TEXT));
  });
});
