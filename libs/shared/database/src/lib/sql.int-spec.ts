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
});
