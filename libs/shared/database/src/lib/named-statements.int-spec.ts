import { DataSource } from 'typeorm';

import { contextDataSourceOptions } from './context-data-source-options';
import { startEmbeddedPostgres } from './embedded-postgres';
import type { EmbeddedPostgres } from './embedded-postgres';
import { namedStatements, statementName } from './named-statements';
import { Sql } from './sql';

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
  async function oneSession(on: boolean): Promise<DataSource> {
    const options = contextDataSourceOptions({
      name: `named_${String(on)}`,
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

  it('names two texts apart even at one call site', () => {
    expect(statementName('add', TEXT)).toMatch(/^add_[0-9a-f]{16}$/);
    expect(statementName('add', TEXT)).toBe(statementName('add', TEXT));
    expect(statementName('add', OTHER)).not.toBe(statementName('add', TEXT));
  });
});
