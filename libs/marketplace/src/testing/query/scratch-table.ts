import { Client } from 'pg';

import type { Doc } from './random-documents';

/** What `openTestDatabase` of @quitanda/testing gives (specs pass it in). */
export interface Database {
  readonly url: string;
  close(): Promise<void>;
}

export interface ScratchTable {
  readonly client: Client;
  close(): Promise<void>;
}

/**
 * `docs` in `table (id int, app text, doc jsonb)` of the test file's own
 * database, ids from 1 in order, app `'app'`.
 */
export async function openScratchTable(
  openDatabase: () => Promise<Database>,
  table: string,
  docs: readonly Doc[],
): Promise<ScratchTable> {
  const database = await openDatabase();
  const client = new Client({ connectionString: database.url });
  await client.connect();
  // As the marketplace connections should (docs/decisions.md): PostgreSQL
  // prices jsonb set functions at 100-1000 rows, so a compiled query over a
  // few thousand records looks worth JIT-compiling, which alone takes ~1 s.
  await client.query('SET jit = off');
  await client.query(
    `CREATE TABLE ${table} (id int PRIMARY KEY, app text NOT NULL, doc jsonb NOT NULL)`,
  );
  await client.query(
    `INSERT INTO ${table} SELECT ordinality::int, 'app', value FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY`,
    [JSON.stringify(docs)],
  );
  return {
    client,
    close: async () => {
      await client.end();
      await database.close();
    },
  };
}
