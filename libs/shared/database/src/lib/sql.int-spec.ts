import { DataSource } from 'typeorm';

import { contextDataSourceOptions } from './context-data-source-options';
import { startEmbeddedPostgres } from './embedded-postgres';
import type { EmbeddedPostgres } from './embedded-postgres';
import { Sql } from './sql';

describe('Sql', () => {
  let embedded: EmbeddedPostgres;
  let dataSource: DataSource;
  let sql: Sql;

  beforeAll(async () => {
    embedded = await startEmbeddedPostgres({});
    dataSource = new DataSource(
      contextDataSourceOptions({
        name: 'sql',
        schema: 'public',
        url: embedded.url,
        entities: [],
        migrations: [],
      }),
    );
    await dataSource.initialize();
    sql = new Sql(dataSource);
    await sql.rows('CREATE TABLE items (id int primary key, label text)');
  });

  afterAll(async () => {
    await dataSource.destroy();
    await embedded.close();
  });

  it('returns rows of UPDATE ... RETURNING as rows, values bound as parameters', async () => {
    await sql.rows('INSERT INTO items VALUES ($1, $2)', [
      1,
      "O'Brien; DROP TABLE items",
    ]);
    const rows = await sql.rows<{ label: string }>(
      'UPDATE items SET label = label || $2 WHERE id = $1 RETURNING label',
      [1, '!'],
    );
    expect(rows).toEqual([{ label: "O'Brien; DROP TABLE items!" }]);
  });

  it('commits a transaction as a whole or not at all', async () => {
    await sql.transaction(async (tx) => {
      await tx.rows('INSERT INTO items VALUES (2, $1)', ['two']);
      await tx.rows('INSERT INTO items VALUES (3, $1)', ['three']);
    });
    await expect(
      sql.transaction(async (tx) => {
        await tx.rows('INSERT INTO items VALUES (4, $1)', ['four']);
        await tx.rows('INSERT INTO items VALUES (2, $1)', ['duplicate']);
      }),
    ).rejects.toThrow(/duplicate key/);
    const ids = await sql.rows<{ id: number }>(
      'SELECT id FROM items ORDER BY id',
    );
    expect(ids.map((r) => r.id)).toEqual([1, 2, 3]);
  });

  it('holds transaction settings for that transaction only (nothing a pooled session keeps)', async () => {
    const setting = 'SELECT current_setting($1) AS value';
    const [inside] = await sql.transaction(
      (tx) => tx.rows<{ value: string }>(setting, ['statement_timeout']),
      { statement_timeout: 1234 },
    );
    expect(inside?.value).toBe('1234ms');
    const [after] = await sql.rows<{ value: string }>(setting, [
      'statement_timeout',
    ]);
    expect(after?.value).not.toBe('1234ms');
    await expect(
      sql.transaction(async () => undefined, { 'jit = on; --': 'off' }),
    ).rejects.toThrow(/odd setting/);
  });

  it('reads from the primary when the DataSource has no replica', async () => {
    const rows = await Sql.replica(dataSource).rows<{ n: number }>(
      'SELECT count(*)::int AS n FROM items',
    );
    expect(rows[0]?.n).toBeGreaterThan(0);
  });
});
